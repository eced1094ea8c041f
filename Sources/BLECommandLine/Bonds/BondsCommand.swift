import ArgumentParser
import BLEAdapter
import BLEHost
import BLEStorage
import Foundation

/// `ble bonds`: the bonds an adapter holds, in its bond store file (docs/bonds.md).
struct BondsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bonds",
        abstract: "List or remove the bonds (paired peers and their keys) an adapter remembers.",
        subcommands: [BondsListCommand.self, BondsRemoveCommand.self, BondsStressWriteCommand.self]
    )
}

/// The options that pick a bond store file: `--file`, else the adapter's default file.
struct BondsFileOptions: ParsableArguments {
    /// `--bonds`, as every command that pairs calls the store file; `--file` as before.
    @Option(name: [.customLong("bonds"), .customLong("file")],
            help: "The bond store file (default: $SWIFTBLE_BONDS, else ~/.local/share/swiftble/bonds-<adapter>.json).")
    var file: String?

    @Option(name: .long, help: "The adapter whose default store to use (an --hci spec; default $SWIFTBLE_HCI, else sim).")
    var hci: String?

    /// The store file these options name.
    func storeFile() throws -> BondStoreFile {
        if let file { return BondStoreFile(path: file) }
        let spec = hci ?? Adapter.defaultSpec
        guard let path = BondStoreLocation.defaultPath(hci: spec, environment: ProcessInfo.processInfo.environment) else {
            throw CommandFailure("No bond store file: give --file PATH or set SWIFTBLE_BONDS (HOME is not set).")
        }
        return BondStoreFile(path: path)
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
