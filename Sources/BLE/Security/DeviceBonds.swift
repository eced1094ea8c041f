import BLEHost
import BLEStorage
import BLEWire
import Foundation
import Synchronization

/// Where a ``BLEDevice`` keeps the bonds its pairings make (Core 5.4, Vol 3, Part C,
/// §9.4.4): the keys that let a bonded peer's later connections encrypt without pairing.
/// The file is the one `ble bonds` lists and `ble pair` writes (docs/bonds.md).
public enum BondStorage: Hashable, Sendable {
    /// The adapter's default store file: `$SWIFTBLE_BONDS`, else
    /// `bonds-<controller address>.json` (or `bonds-<adapter>.json` for a controller
    /// without a public address) in `$XDG_DATA_HOME/swiftble` or `~/.local/share/swiftble`;
    /// in memory when none of those variables is set.
    case `default`
    /// The store file at this path (made at the first bond).
    case file(String)
    /// In memory: bonds last as long as the ``BLEDevice`` object.
    case memory
}

/// The bonds of one device: a ``BLEStorage/BondKeeper`` (shared with the `ble` commands)
/// that saves bonding pairings and answers the host's key lookups, plus a synchronous view
/// of its records for ``Connection/peerIdentifier``, and the subscriptions of bonded
/// clients between their connections (Vol 3, Part G, §3.3.3.3).
///
/// A bonded client's CCCD values go to the bond record (and so to the store file) at each
/// write that changes one, and again when it departs, where a reopened device finds them;
/// so does the next sign counter its signed writes must use. Its Client Supported Features
/// are kept in memory only.
///
/// Saves run one after another, in the order the changes happened, each an atomic write of
/// the whole file. They are not coalesced: a client writes a CCCD with a Write Request and
/// waits for the response (Vol 3, Part F, §3.3.2), so one client causes at most one save
/// per round trip.
final class DeviceBonds: Sendable {
    let keeper: BondKeeper
    private let view: Mutex<BondStore>
    private let subscriptions = Mutex<[BluetoothAddress: GATTServerClientRecord]>([:])
    /// The last save started, which runs after the one before it; ``settle()`` awaits it.
    private let saves = Mutex<Task<Void, Never>?>(nil)

    private init(keeper: BondKeeper, store: BondStore) {
        self.keeper = keeper
        view = Mutex(store)
    }

    /// The bonds `storage` names; the default file is named after the controller's public
    /// address `controller`, else after the controller spec `hci` (docs/bonds.md).
    /// - Throws: ``BLEError/bondStoreUnavailable(_:)`` when the file cannot be read.
    static func open(_ storage: BondStorage, hci: String, controller: BluetoothAddress?) async throws(BLEError) -> DeviceBonds {
        let path: String?
        switch storage {
        case .memory: path = nil
        case let .file(given): path = given
        case .default: path = BondStoreLocation.defaultPath(hci: hci, controllerAddress: controller, environment: ProcessInfo.processInfo.environment)
        }
        guard let path else { return DeviceBonds(keeper: BondKeeper(), store: BondStore()) }
        do {
            let keeper = try BondKeeper.load(BondStoreFile(path: path))
            return DeviceBonds(keeper: keeper, store: await keeper.store)
        } catch {
            throw .bondStoreUnavailable("\(path): \(error)")
        }
    }

    /// In memory, for a device opened on a host of the caller's.
    static func inMemory() -> DeviceBonds { DeviceBonds(keeper: BondKeeper(), store: BondStore()) }

    /// The bond of the peer at `address` (its identity, or an address its IRK resolves).
    func record(for address: BluetoothAddress) -> BondRecord? {
        view.withLock { try? $0.record(for: address) }
    }

    /// The key we, as central, start encryption with for `peer`, and the level it gives.
    func encryptionKey(for peer: BluetoothAddress) -> (key: BondLongTermKey, level: LinkSecurityLevel, secureConnections: Bool)? {
        guard let record = record(for: peer), let key = record.keyForStartingEncryption else { return nil }
        return (key, record.securityLevel, record.isSecureConnections)
    }

    /// Keeps the bond of a completed pairing (the keeper does nothing for one that did not
    /// bond) and refreshes the view. A file that cannot be written leaves the bond in memory.
    func keep(_ result: SMPPairingResult, peer: BluetoothAddress) async {
        _ = try? await keeper.keep(result, peer: peer)
        await refresh()
    }

    /// Copies the keeper's records into the synchronous view.
    func refresh() async {
        let store = await keeper.store
        view.withLock { $0 = store }
    }

    /// A bonded client's link went down: its subscriptions wait for its next connection
    /// (Vol 3, Part G, §3.3.3.3). Clients without a bond are forgotten.
    /// Its CCCD values and next sign counter are saved to its bond record as well. A file
    /// that cannot be written leaves them in memory.
    func clientDeparted(_ peer: BluetoothAddress, _ client: GATTServerClientRecord) {
        guard let identity = record(for: peer)?.identityAddress else { return }
        subscriptions.withLock { $0[identity] = client }
        let values = client.clientConfigurations
        let counter = client.signing.map { UInt32(clamping: $0.nextCounter) }
        enqueueSave { keeper in
            _ = try? await keeper.setClientConfigurations(values, for: identity)
            if let counter { _ = try? await keeper.setPeerSignCounter(counter, for: identity) }
        }
    }

    /// A client on a link from `peer` changed one Client Characteristic Configuration
    /// (Vol 3, Part G, §3.3.3.3): for a bonded client the value is saved at once, so a
    /// crash before it disconnects keeps it. Clients without a bond are not saved.
    func clientConfigurationChanged(_ peer: BluetoothAddress, valueHandle: UInt16, bits: UInt16) {
        guard let identity = record(for: peer)?.identityAddress else { return }
        enqueueSave { keeper in
            _ = try? await keeper.setClientConfiguration(bits, valueHandle: valueHandle, for: identity)
        }
    }

    /// Saves our client's GATT cache of the bonded peer at `peer` (`nil` forgets it).
    func saveGATTCache(_ cache: GATTCache?, for peer: BluetoothAddress) async {
        guard let identity = record(for: peer)?.identityAddress else { return }
        enqueueSave { keeper in _ = try? await keeper.setGATTCache(cache, for: identity) }
        await settle()
    }

    /// Takes the next SignCounter of our CSRK for the bonded peer at `peer` and saves the
    /// one after it (Vol 3, Part H, §2.4.5: a counter is never used twice); `nil` without
    /// a bond holding a CSRK of ours.
    func takeSignCounter(for peer: BluetoothAddress) async -> (csrk: UInt128, counter: UInt32)? {
        await settle()
        guard let identity = record(for: peer)?.identityAddress,
              let taken = await keeper.takeLocalSignCounter(for: identity) else { return nil }
        await refresh()
        return taken
    }

    /// Runs `save` after every save started before it, then refreshes the view.
    private func enqueueSave(_ save: @escaping @Sendable (BondKeeper) async -> Void) {
        saves.withLock { last in last = chain(save, after: last) }
    }

    private func chain(_ save: @escaping @Sendable (BondKeeper) async -> Void, after previous: Task<Void, Never>?) -> Task<Void, Never> {
        Task {
            await previous?.value
            await save(self.keeper)
            await self.refresh()
        }
    }

    /// Waits for the saves started so far.
    func settle() async {
        let last = saves.withLock { $0 }
        await last?.value
    }

    /// What our server gives back to a bonded client reconnecting from `peer`: what it kept
    /// since the client left, else the CCCD values of its bond record (e.g. saved before the
    /// device was reopened); with the peer's CSRK and next sign counter when the bond holds
    /// one, so its signed writes verify (Vol 3, Part H, §2.4.5).
    func clientRecord(for peer: BluetoothAddress) -> GATTServerClientRecord? {
        guard let record = record(for: peer) else { return nil }
        if let kept = subscriptions.withLock({ $0[record.identityAddress] }), kept.signing != nil || record.peerKeys.signingKey == nil {
            return kept
        }
        let signing = record.peerKeys.signingKey.map { GATTServerSigningKey(csrk: $0.key, nextCounter: UInt64($0.signCounter)) }
        guard !record.clientConfigurations.isEmpty || signing != nil else { return nil }
        var restored = subscriptions.withLock { $0[record.identityAddress] }
            ?? GATTServerClientRecord(clientConfigurations: record.clientConfigurations)
        restored.signing = signing
        return restored
    }
}

/// Stable identifiers for unbonded peers, as apps see them (`CBPeripheral.identifier`).
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
