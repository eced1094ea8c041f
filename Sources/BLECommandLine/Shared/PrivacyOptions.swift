import ArgumentParser
import BLEHost
import BLEStorage
import BLEWire
import Foundation

/// `--privacy` for the commands that advertise, scan or connect (Core 5.4, Vol 3, Part C,
/// §10.7), like bluetoothctl's `privacy on`: a resolvable private address made from our IRK
/// (kept in the bond store file, made the first time) and changed every `--rotation`
/// seconds, and the bonded peers' private addresses resolved to their identities.
struct PrivacyOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Use a resolvable private address from our IRK (kept in the bond store) instead of the public address.",
        discussion: "Only bonded peers, which hold the IRK, can tell it is us; the address changes every --rotation seconds. Bonded peers' private addresses show as their identity addresses."))
    var privacy = false

    @Option(help: "With --privacy, seconds between address changes (1 to 3600; default 900, the 15 minutes the specification recommends).")
    var rotation: Int = 900

    func validate() throws {
        guard (1 ... 3600).contains(rotation) else { throw ValidationError("--rotation must be from 1 to 3600 seconds.") }
    }

    /// With `--privacy`, turns privacy on for `host` (started) with our IRK from the store
    /// file `bonds` (or the adapter's default), and resolves the bonded peers' addresses.
    func enable(on host: BLEHost.Host, hci: String, bonds: String? = nil) async throws {
        guard privacy else { return }
        let identity = await host.controller?.address
        let keeper = try Self.keeper(hci: hci, controller: identity, bonds: bonds)
        let irk: UInt128
        do {
            irk = try await keeper.localIdentityResolvingKey(identityAddress: identity)
        } catch {
            throw CommandFailure("Cannot keep our identity resolving key: \(error).")
        }
        do {
            try await host.enablePrivacy(irk: irk, rotation: .seconds(rotation))
        } catch {
            throw CommandFailure("Cannot turn privacy on: \(error).")
        }
        await host.setResolvingList(await keeper.store.resolvingList)
    }

    /// The keeper of `bonds`, else of the controller's default store (named after its public
    /// address `controller`, else after `hci`), else one in memory.
    static func keeper(hci: String, controller: BluetoothAddress?, bonds: String?) throws -> BondKeeper {
        let path = bonds ?? BondStoreLocation.defaultPath(hci: hci, controllerAddress: controller,
                                                          environment: ProcessInfo.processInfo.environment)
        guard let path else { return BondKeeper() }
        do {
            return try BondKeeper.load(BondStoreFile(path: path))
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
