import ArgumentParser
import BLEHost
import BLEStorage
import Foundation

/// `ble bonds list [--file PATH] [--json]`: one line per bond, never the keys themselves.
struct BondsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the bonds in an adapter's bond store (keys are not printed)."
    )

    @OptionGroup var store: BondsFileOptions

    @Flag(name: .long, help: "Print one JSON object per bond.")
    var json = false

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let file = try await store.storeFile()
        // A listing only looks: a corrupt file stays where it is, and a file the user named
        // must exist (a mistyped path is not an empty store).
        let read: BondStore?
        do {
            read = try file.read()
        } catch {
            throw CommandFailure(error.description)
        }
        if read == nil, store.file != nil {
            throw CommandFailure("There is no bond store at \(file.path); check the path, or leave out --bonds to list the adapter's default store.")
        }
        let loaded = read ?? BondStore()
        let records = loaded.sortedRecords
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            for record in records {
                let data = try encoder.encode(BondSummary(record))
                print(String(decoding: data, as: UTF8.self))
            }
            return
        }
        // Whether we hold an IRK for privacy (`--privacy`), never the key itself; last.
        defer { if let line = Self.localIdentityLine(loaded) { print(line) } }
        guard !records.isEmpty else {
            print("No bonds in \(file.path).")
            return
        }
        print("Bonds in \(file.path):")
        for record in records {
            let summary = BondSummary(record)
            let keys = summary.peerKeys.isEmpty ? "-" : summary.peerKeys.joined(separator: ",")
            print("\(summary.address)  \(summary.addressType.padding(toLength: 6, withPad: " ", startingAt: 0))  "
                + "\(summary.peerIdentifier)  \(summary.securityLevel)  key size \(summary.keySize)  "
                + "\(summary.secureConnections ? "Secure Connections" : "legacy")  peer keys \(keys)  "
                + "GATT cache \(summary.gattCacheText)  updated \(summary.updatedText)")
        }
    }

    /// `Our IRK: present (identity C0:…, random)`, or `nil` when the store holds none.
    static func localIdentityLine(_ store: BondStore) -> String? {
        guard store.localIdentityResolvingKey != nil else { return nil }
        guard let identity = store.localIdentityAddress else { return "Our IRK: present" }
        return "Our IRK: present (identity \(identity), \(identity.kind == .public ? "public" : "random"))"
    }
}

/// What `ble bonds list` shows of a bond: who, how secure, which keys exist (not their values).
struct BondSummary: Encodable {
    var address: String
    var addressType: String
    var peerIdentifier: String
    var securityLevel: String
    var keySize: Int
    var secureConnections: Bool
    /// The names of the keys the peer distributed: `LTK`, `IRK`, `CSRK`.
    var peerKeys: [String]
    /// The names of the keys we distributed.
    var localKeys: [String]
    /// How many CCCD values are remembered.
    var clientConfigurations: Int
    var hasDatabaseHash: Bool
    /// How many of the peer's services our client keeps in its GATT cache (0 when none is
    /// held; Core 5.4, Vol 3, Part G, §2.5.2).
    var gattCacheServices: Int
    /// Whether a GATT cache (a tree with the Database Hash to check it by) is held.
    var hasGATTCache: Bool
    var created: Int64
    var updated: Int64

    init(_ record: BondRecord) {
        address = record.identityAddress.description
        addressType = record.identityAddress.kind == .public ? "public" : "random"
        peerIdentifier = record.peerIdentifier
        securityLevel = bondLevelName(record.securityLevel)
        keySize = record.keySize
        secureConnections = record.isSecureConnections
        peerKeys = Self.names(record.peerKeys)
        localKeys = Self.names(record.localKeys)
        clientConfigurations = record.clientConfigurations.count
        hasDatabaseHash = record.databaseHash != nil
        gattCacheServices = record.gattCache?.services.count ?? 0
        hasGATTCache = record.gattCache != nil
        created = record.created
        updated = record.updated
    }

    private static func names(_ keys: BondKeys) -> [String] {
        [keys.longTermKey == nil ? nil : "LTK", keys.identityResolvingKey == nil ? nil : "IRK",
         keys.signingKey == nil ? nil : "CSRK"].compactMap { $0 }
    }

    /// `5 services` when a GATT cache is held, else `none`.
    var gattCacheText: String {
        hasGATTCache ? "\(gattCacheServices) service\(gattCacheServices == 1 ? "" : "s")" : "none"
    }

    /// `2023-11-14T22:13:20Z`.
    var updatedText: String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(updated)))
    }
}
