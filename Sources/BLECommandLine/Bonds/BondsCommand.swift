import ArgumentParser
import BLEAdapter
import BLEHost
import BLEStorage
import BLEWire
import Foundation

/// `ble bonds`: the bonds an adapter holds, in its bond store file (docs/bonds.md).
struct BondsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bonds",
        abstract: "List or remove the bonds (paired peers and their keys) an adapter remembers.",
        subcommands: [BondsListCommand.self, BondsRemoveCommand.self, BondsStressWriteCommand.self]
    )
}

/// The options that pick a bond store file: `--bonds` (or `--file`), else the default file of
/// the controller `--hci` names, which is named after its public address (docs/bonds.md).
struct BondsFileOptions: ParsableArguments {
    /// `--bonds`, as every command that pairs calls the store file; `--file` as before.
    @Option(name: [.customLong("bonds"), .customLong("file")],
            help: "The bond store file (default: $SWIFTBLE_BONDS, else ~/.local/share/swiftble/bonds-<controller address>.json).")
    var file: String?

    @Option(name: .long, help: "The controller whose default store to use (an --hci spec; default $SWIFTBLE_HCI, else sim); it is asked its address.")
    var hci: String?

    /// The store file these options name. Without `--bonds` or `$SWIFTBLE_BONDS` the
    /// controller is opened for a moment and asked its public address, as bluetoothctl asks
    /// the adapter: the default file is named after it.
    func storeFile() async throws -> BondStoreFile {
        if let file { return BondStoreFile(path: file) }
        let spec = hci ?? Adapter.defaultSpec
        let environment = ProcessInfo.processInfo.environment
        var address: BluetoothAddress?
        if BondStoreLocation.needsControllerAddress(environment: environment) {
            address = try await Self.controllerAddress(spec)
        }
        guard let path = BondStoreLocation.defaultPath(hci: spec, controllerAddress: address, environment: environment) else {
            throw CommandFailure("No bond store file: give --bonds PATH or set SWIFTBLE_BONDS (HOME is not set).")
        }
        return BondStoreFile(path: path)
    }

    /// The public address of the controller `spec` names (`nil` if it has none), from the
    /// start-up's Read BD_ADDR; the controller is released again at once.
    static func controllerAddress(_ spec: String) async throws -> BluetoothAddress? {
        let adapter: Adapter
        do {
            adapter = try await Adapter.open(hci: spec)
        } catch {
            throw CommandFailure("\(error) The default bond store is named after the controller's address; give --bonds PATH to read a store without it.")
        }
        do {
            let info = try await adapter.host.start()
            await adapter.close()
            return info.address
        } catch {
            await adapter.close()
            throw CommandFailure("\(spec) did not start (\(error)); give --bonds PATH to read a store without it.")
        }
    }
}

/// Loads a store for a command; a load failure becomes the command's one-sentence error.
func loadBondStore(_ file: BondStoreFile) throws -> BondStore {
    do {
        return try file.load()
    } catch {
        throw CommandFailure(error.description)
    }
}

/// Saves a store for a command; a failure becomes the command's one-sentence error.
func saveBondStore(_ store: BondStore, to file: BondStoreFile) throws {
    do {
        try file.save(store)
    } catch {
        throw CommandFailure(error.description)
    }
}

/// The name docs/bonds.md gives a security level.
func bondLevelName(_ level: LinkSecurityLevel) -> String {
    switch level {
    case .none: "none"
    case .unauthenticated: "unauthenticated"
    case .authenticated: "authenticated"
    case .authenticatedSecureConnections: "authenticatedSecureConnections"
    }
}
