import BLEHost
import BLEStorage
import BLEWire
import Synchronization
import Testing

/// The bond keeper's maximum (docs/limits.md): a peer pairing from ever new identities
/// displaces the oldest bonds rather than growing the store and its file.
@Suite("Bond keeper limit")
struct BondKeeperLimitTests {
    static func justWorks() -> SMPPairingResult {
        SMPPairingResult(level: .unauthenticated, keySize: 16, bonded: true, secureConnections: true,
                         method: .justWorks, secureConnectionsLongTermKey: 0xAA55, peerKeys: SMPKeys(), localKeys: SMPKeys())
    }

    @Test("past maximumBonds each new bond evicts the least recently updated one, and the count is kept")
    func evictsOldest() async throws {
        let seconds = Mutex<Int64>(1_700_000_000)
        let keeper = BondKeeper(maximumBonds: 8, clock: { seconds.withLock { $0 += 1; return $0 } })
        for index in 0 ..< 100 {
            try await keeper.keep(Self.justWorks(), peer: BluetoothAddress(UInt64(0xC000_0000_0000 + index), kind: .random))
            #expect(await keeper.store.records.count <= 8)
        }
        #expect(await keeper.store.records.count == 8)
        #expect(await keeper.evictedBonds == 92)
        let kept = await keeper.store.sortedRecords.map(\.identityAddress)
        #expect(kept == (92 ..< 100).map { BluetoothAddress(UInt64(0xC000_0000_0000 + $0), kind: .random) })
        // Pairing again with a kept peer replaces its bond and evicts nothing.
        try await keeper.keep(Self.justWorks(), peer: kept[0])
        #expect(await keeper.evictedBonds == 92)
        #expect(await keeper.store.records.count == 8)
    }
}
