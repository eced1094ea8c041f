import ArgumentParser
import BLEHost
import BLEStorage
import BLEWire

/// `ble bonds remove ADDRESS [--file PATH]`: forget one bond, named by its identity address
/// or its peer identifier.
struct BondsRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a bond from an adapter's bond store."
    )

    @Argument(help: "The peer's identity address (C0:11:22:33:44:55) or its peer identifier (a UUID).")
    var address: String

    @Option(name: .long, help: "The address type, public or random, when both kinds of bond share the address.")
    var type: String?

    @OptionGroup var store: BondsFileOptions

    func validate() throws {
        if let type, type != "public", type != "random" {
            throw ValidationError("--type must be public or random.")
        }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let file = try await store.storeFile()
        var bonds = try loadBondStore(file)
        let matches: [BondRecord]
        if let value = BluetoothAddress(address) {
            matches = bonds.sortedRecords.filter { record in
                record.identityAddress.value == value.value
                    && (type == nil || (record.identityAddress.kind == .public) == (type == "public"))
            }
        } else if let record = bonds.record(peerIdentifier: address) {
            matches = [record]
        } else {
            throw CommandFailure("\(address) is neither an address like C0:11:22:33:44:55 nor a known peer identifier; `ble bonds list` shows the bonds.")
        }
        guard let record = matches.first else {
            throw CommandFailure("No bond with \(address) in \(file.path); `ble bonds list` shows the bonds.")
        }
        guard matches.count == 1 else {
            throw CommandFailure("Two bonds have the address \(address), one public and one random; add --type public or --type random.")
        }
        bonds.removeRecord(for: record.identityAddress)
        try saveBondStore(bonds, to: file)
        let kind = record.identityAddress.kind == .public ? "public" : "random"
        print("Removed the bond with \(record.identityAddress) (\(kind), \(record.peerIdentifier)).")
    }
}
