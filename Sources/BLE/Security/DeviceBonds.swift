import BLEHost
import Foundation
import Synchronization

/// Where a ``BLEDevice`` keeps the bonds its pairings make (Core 5.4, Vol 3, Part C,
/// §9.4.4): the keys that let a bonded peer's later connections encrypt without pairing,
/// and the GATT subscriptions a bonded client keeps (Vol 3, Part G, §3.3.3.3).
public enum BondStorage: Hashable, Sendable {
    /// In memory: bonds last as long as the ``BLEDevice`` object and are lost on close.
    case memory
}

/// The bonds of one device, kept in memory only (``BondStorage/memory``): records made
/// from completed bonding pairings, looked up by the peer's identity address or a
/// resolvable private address its IRK resolves.
final class DeviceBonds: Sendable {
    private let store = Mutex(BondStore())

    /// The bond of the peer at `address`.
    func record(for address: BluetoothAddress) -> BondRecord? {
        store.withLock { try? $0.record(for: address) }
    }

    /// The key we, as central, start encryption with for `peer`, and the level it gives.
    func encryptionKey(for peer: BluetoothAddress) -> (key: BondLongTermKey, level: LinkSecurityLevel, secureConnections: Bool)? {
        guard let record = record(for: peer), let key = record.keyForStartingEncryption else { return nil }
        return (key, record.securityLevel, record.isSecureConnections)
    }

    /// The answer to an LE Long Term Key Request when we are peripheral (Vol 4, Part E,
    /// §7.7.65.5): the bond's key for the request's EDIV and Rand.
    func longTermKey(for request: LongTermKeyRequest) -> (longTermKey: UInt128, level: LinkSecurityLevel)? {
        guard let record = record(for: request.peer), let key = record.keyForRequest(ediv: request.ediv, rand: request.rand) else {
            return nil
        }
        return (key, record.securityLevel)
    }

    /// Keeps the bond of a completed pairing with `peer` when it bonded, replacing an
    /// earlier bond of the same identity but keeping its identifier, creation time and
    /// subscriptions. The identifier of a new bond is the one the peer had unbonded.
    func keep(_ result: SMPPairingResult, peer: BluetoothAddress) {
        guard result.bonded else { return }
        let identity = result.peerKeys.identity?.identityAddress ?? peer
        let now = Int64(Date().timeIntervalSince1970)
        store.withLock { store in
            let previous = try? store.record(for: identity)
            let record = BondRecord(
                identityAddress: identity,
                peerIdentifier: previous?.peerIdentifier ?? PeerIdentifier.derived(from: peer),
                secureConnectionsLongTermKey: result.secureConnectionsLongTermKey, keySize: Int(result.keySize),
                securityLevel: result.level, peerKeys: BondKeys(result.peerKeys), localKeys: BondKeys(result.localKeys),
                clientConfigurations: previous?.clientConfigurations ?? [:],
                created: previous?.created ?? now, updated: now)
            store.insert(record)
        }
    }

    /// A bonded client's link went down: its subscriptions are kept for its next
    /// connection (Vol 3, Part G, §3.3.3.3). Clients without a bond are forgotten.
    func clientDeparted(_ peer: BluetoothAddress, _ client: GATTServerClientRecord) {
        store.withLock { store in
            guard var record = try? store.record(for: peer) else { return }
            record.clientConfigurations = client.clientConfigurations
            store.insert(record)
        }
    }

    /// What our server should give back to a bonded client reconnecting from `peer`.
    func clientRecord(for peer: BluetoothAddress) -> GATTServerClientRecord? {
        guard let record = record(for: peer), !record.clientConfigurations.isEmpty else { return nil }
        return GATTServerClientRecord(clientConfigurations: record.clientConfigurations)
    }
}

extension BondKeys {
    /// The keys one side distributed in pairing (Vol 3, Part H, §3.6), as a bond keeps them.
    init(_ keys: SMPKeys) {
        self.init(longTermKey: keys.longTermKey.map { BondLongTermKey(key: $0.key, ediv: $0.encryptedDiversifier, rand: $0.random) },
                  identityResolvingKey: keys.identity?.identityResolvingKey,
                  signingKey: keys.signatureKey.map { BondSigningKey(key: $0) })
    }
}

/// Stable identifiers for peers, as apps see them (`CBPeripheral.identifier`).
enum PeerIdentifier {
    /// A UUID made from `address` and its type alone, so an unbonded peer keeps its
    /// identifier for as long as it keeps its address: RFC 9562 version 8 (custom), the
    /// octets "SwiftBLE", the address type, zero, and the six address octets.
    static func derived(from address: BluetoothAddress) -> String {
        var octets = Array("SwiftBLE".utf8) + [address.kind.rawValue, 0]
        octets += (0 ..< 6).reversed().map { UInt8(truncatingIfNeeded: address.value >> (8 * UInt64($0))) }
        octets[6] = octets[6] & 0x0F | 0x80 // version 8
        octets[8] = octets[8] & 0x3F | 0x80 // RFC variant
        var text = ""
        for (index, octet) in octets.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text += String(octet, radix: 16, uppercase: true).leftPadded(to: 2)
        }
        return text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
