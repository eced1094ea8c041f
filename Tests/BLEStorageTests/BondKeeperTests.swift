import BLEHost
import BLEStorage
import BLEWire
import Foundation
import Synchronization
import Testing

/// The bond keeper's records: made from pairing results, saved, found again by address,
/// identity or resolvable private address, and the keys handed back in each role.
@Suite("Bond keeper")
struct BondKeeperTests {
    static let peer = BluetoothAddress(0xC1_22_33_44_55_66, kind: .random)
    static let identity = BluetoothAddress(0x00_1B_DC_07_32_EF)
    static let irk: UInt128 = 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10

    static func secureConnections(bonded: Bool = true, withIdentity: Bool = true) -> SMPPairingResult {
        SMPPairingResult(level: .authenticatedSecureConnections, keySize: 16, bonded: bonded, secureConnections: true,
                         method: .numericComparison, secureConnectionsLongTermKey: 0xAA55,
                         peerKeys: SMPKeys(identity: withIdentity ? SMPIdentity(identityResolvingKey: irk, identityAddress: identity) : nil,
                                           signatureKey: 0x77),
                         localKeys: SMPKeys())
    }

    static func legacy() -> SMPPairingResult {
        SMPPairingResult(level: .authenticated, keySize: 12, bonded: true, secureConnections: false,
                         method: .passkeyEntry(.initiatorDisplays), secureConnectionsLongTermKey: nil,
                         peerKeys: SMPKeys(longTermKey: .init(key: 0x1111, encryptedDiversifier: 0x0102, random: 0x0A0B)),
                         localKeys: SMPKeys(longTermKey: .init(key: 0x2222, encryptedDiversifier: 0x0304, random: 0x0C0D)))
    }

    @Test("a Secure Connections bond is kept under the peer's identity and its key answers both roles")
    func secureConnectionsBond() async throws {
        let keeper = BondKeeper(clock: { 1_700_000_000 })
        let record = try #require(try await keeper.keep(Self.secureConnections(), peer: Self.peer))
        #expect(record.identityAddress == Self.identity)
        #expect(record.secureConnectionsLongTermKey == 0xAA55)
        #expect(record.securityLevel == .authenticatedSecureConnections)
        #expect(record.peerKeys.identityResolvingKey == Self.irk)
        #expect(record.peerKeys.signingKey == BondSigningKey(key: 0x77))
        #expect(record.created == 1_700_000_000)
        let key = try #require(await keeper.encryptionKey(for: Self.identity))
        #expect(key.key == BondLongTermKey(key: 0xAA55))
        #expect(key.level == .authenticatedSecureConnections)
        let answer = await keeper.longTermKey(for: LongTermKeyRequest(handle: 1, peer: Self.identity, ediv: 0, rand: 0))
        #expect(answer?.longTermKey == 0xAA55)
        #expect(await keeper.longTermKey(for: LongTermKeyRequest(handle: 1, peer: Self.identity, ediv: 1, rand: 0)) == nil)
        #expect(await keeper.longTermKey(for: LongTermKeyRequest(handle: 1, peer: BluetoothAddress(0x42), ediv: 0, rand: 0)) == nil)
    }

    @Test("a peer reconnecting from a new resolvable private address is found by its IRK")
    func resolvesPrivateAddress() async throws {
        let keeper = BondKeeper()
        try await keeper.keep(Self.secureConnections(), peer: Self.peer)
        let rpa = try ResolvablePrivateAddress.make(irk: Self.irk, prand: 0x42_1234)
        #expect(await keeper.record(for: rpa)?.identityAddress == Self.identity)
        let other = try ResolvablePrivateAddress.make(irk: 0x99, prand: 0x42_1234)
        #expect(await keeper.record(for: other) == nil)
    }

    @Test("a legacy bond gives the peer's LTK to start encryption and ours to the matching LTK request")
    func legacyBond() async throws {
        let keeper = BondKeeper()
        let record = try #require(try await keeper.keep(Self.legacy(), peer: Self.peer))
        #expect(record.identityAddress == Self.peer)
        #expect(record.keySize == 12)
        #expect(await keeper.encryptionKey(for: Self.peer)?.key == BondLongTermKey(key: 0x1111, ediv: 0x0102, rand: 0x0A0B))
        let request = LongTermKeyRequest(handle: 3, peer: Self.peer, ediv: 0x0304, rand: 0x0C0D)
        #expect(await keeper.longTermKey(for: request)?.longTermKey == 0x2222)
        #expect(await keeper.longTermKey(for: request)?.level == .authenticated)
        #expect(await keeper.longTermKey(for: LongTermKeyRequest(handle: 3, peer: Self.peer, ediv: 0, rand: 0)) == nil)
    }

    @Test("a pairing without bonding keeps nothing")
    func noBonding() async throws {
        let keeper = BondKeeper()
        #expect(try await keeper.keep(Self.secureConnections(bonded: false), peer: Self.peer) == nil)
        #expect(await keeper.store.records.isEmpty)
    }

    @Test("pairing again keeps the peer identifier, creation time and CCCD values and replaces the keys")
    func repairing() async throws {
        let times = ClockSteps([100, 200])
        let keeper = BondKeeper(clock: { times.next() })
        let first = try #require(try await keeper.keep(Self.secureConnections(withIdentity: false), peer: Self.peer))
        var changed = Self.secureConnections(withIdentity: false)
        changed.secureConnectionsLongTermKey = 0xBEEF
        let second = try #require(try await keeper.keep(changed, peer: Self.peer))
        #expect(second.peerIdentifier == first.peerIdentifier)
        #expect(second.created == 100)
        #expect(second.updated == 200)
        #expect(second.secureConnectionsLongTermKey == 0xBEEF)
        #expect(await keeper.store.records.count == 1)
        // Now the peer distributes its identity: the bond moves from its address to its identity.
        let third = try #require(try await keeper.keep(Self.secureConnections(), peer: Self.peer))
        #expect(third.peerIdentifier == first.peerIdentifier)
        #expect(await keeper.store.records.keys.sorted() == [Self.identity])
    }

    @Test("bonds are written to the store file and a new keeper loads them; removal saves too")
    func savedToFile() async throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        let keeper = try BondKeeper.load(file)
        try await keeper.keep(Self.secureConnections(), peer: Self.peer)
        try await keeper.keep(Self.legacy(), peer: Self.peer)
        let reloaded = try BondKeeper.load(file)
        #expect(await reloaded.store == keeper.store)
        #expect(await reloaded.store.records.count == 2)
        #expect(try await reloaded.remove(Self.peer)?.identityAddress == Self.peer)
        #expect(try file.load().records.keys.sorted() == [Self.identity])
    }
}

/// A clock that returns the given seconds in turn.
final class ClockSteps: Sendable {
    private let values: Mutex<[Int64]>
    init(_ values: [Int64]) { self.values = Mutex(values) }
    func next() -> Int64 { values.withLock { $0.count > 1 ? $0.removeFirst() : ($0.first ?? 0) } }
}
