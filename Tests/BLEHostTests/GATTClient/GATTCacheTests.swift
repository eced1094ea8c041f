import BLEHost
import BLEWire
import Testing

/// The client's attribute cache (Core 5.4, Vol 3, Part G, §2.5.2, §7.1, §7.3).
@Suite("GATT cache")
struct GATTCacheTests {
    static func service(_ uuid: UInt16, _ handles: ClosedRange<ATT.Handle>) -> GATTCachedService {
        GATTCachedService(service: GATTDiscoveredService(uuid: BluetoothUUID(uuid), handles: handles))
    }

    static let serviceChanged = GATTCachedCharacteristic(characteristic: GATTDiscoveredCharacteristic(
        uuid: BluetoothUUID(0x2A05), declarationHandle: 7, valueHandle: 8, properties: .indicate, endHandle: 9))

    @Test("A cache is valid only under the Database Hash it was discovered with")
    func validity() {
        let hash = [UInt8](repeating: 0xA5, count: 16)
        let cache = GATTCache(services: [Self.service(0x1800, 1 ... 5)], databaseHash: hash)
        #expect(cache.isValid(forDatabaseHash: hash))
        #expect(!cache.isValid(forDatabaseHash: [UInt8](repeating: 0, count: 16)))
        #expect(!cache.isValid(forDatabaseHash: nil))
        #expect(!GATTCache(services: []).isValid(forDatabaseHash: hash))
    }

    @Test("Service Changed invalidates the services in its range until they are discovered again")
    func invalidation() {
        var gattService = Self.service(0x1801, 6 ... 11)
        gattService.characteristics = [Self.serviceChanged]
        let hash = [UInt8](repeating: 1, count: 16)
        var cache = GATTCache(services: [Self.service(0x1800, 1 ... 5), gattService, Self.service(0x180F, 12 ... 20)], databaseHash: hash)
        #expect(cache.serviceChangedValueHandles == [8])
        cache.invalidate(12 ... 14)
        #expect(cache.services.map(\.service.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801)])
        #expect(cache.rangesToRediscover == [12 ... 14] && cache.databaseHash == nil)
        cache.merge([Self.service(0x180A, 12 ... 16)], rediscovering: 12 ... 14)
        #expect(cache.services.map(\.service.handles.lowerBound) == [1, 6, 12] && cache.rangesToRediscover.isEmpty)
        cache.databaseHash = hash
        #expect(cache.isValid(forDatabaseHash: hash))
    }

    @Test("The store hands out a peer's cache only when the hash still matches, and drops a stale one")
    func store() throws {
        let peer = GATTCacheKey(identityAddress: try #require(BluetoothAddress("C0:11:22:33:44:55", kind: .random)))
        let hash = [UInt8](repeating: 2, count: 16)
        var store = GATTCacheStore()
        store.caches[peer] = GATTCache(services: [Self.service(0x1800, 1 ... 5)], databaseHash: hash)
        #expect(store.validCache(for: peer, databaseHash: hash)?.services.count == 1)
        #expect(store.validCache(for: peer, databaseHash: [UInt8](repeating: 3, count: 16)) == nil)
        #expect(store.caches[peer] == nil)
    }
}
