import BLEHost
import BLEStorage
import BLEWire
import Foundation
import Testing

/// The GATT state a bond keeps in the store file: our client's cache of the peer's tree
/// (Core 5.4, Vol 3, Part G, §2.5.2, §7.3), the peer's CCCD values saved as they change
/// (§3.3.3.3), and the sign counters (Part H, §2.4.5).
@Suite("Bond GATT state")
struct BondGATTStateTests {
    static let peer = BluetoothAddress(0x00_1B_DC_07_32_EF)
    static let hash: [UInt8] = Array(0x10 ..< 0x20)

    static let tree: [GATTCachedService] = [
        GATTCachedService(service: GATTDiscoveredService(uuid: BluetoothUUID(0x1801), handles: 0x0001 ... 0x0008),
                          characteristics: [GATTCachedCharacteristic(
                              characteristic: GATTDiscoveredCharacteristic(uuid: BluetoothUUID(0x2A05), declarationHandle: 2,
                                                                           valueHandle: 3, properties: [.indicate], endHandle: 4),
                              descriptors: [GATTDiscoveredDescriptor(uuid: BluetoothUUID(0x2902), handle: 4)])]),
        GATTCachedService(service: GATTDiscoveredService(uuid: BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E") ?? 0,
                                                         handles: 0x0010 ... 0x0020),
                          includedServices: [GATTDiscoveredIncludedService(declarationHandle: 0x11, uuid: 0x180F, handles: 0x30 ... 0x33)],
                          characteristicsDiscovered: false),
        GATTCachedService(service: GATTDiscoveredService(uuid: 0x180F, handles: 0x0030 ... 0x0033, isPrimary: false),
                          characteristics: [], includedServicesDiscovered: false),
    ]

    static func record() -> BondRecord {
        BondRecord(identityAddress: peer, peerIdentifier: "0F000000-0000-4000-8000-000000000001",
                   secureConnectionsLongTermKey: 0x99, securityLevel: .unauthenticated,
                   peerKeys: BondKeys(signingKey: BondSigningKey(key: 0x7777)),
                   localKeys: BondKeys(signingKey: BondSigningKey(key: 0x5151)), created: 1_700_000_000)
    }

    @Test("a record with a GATT cache round-trips through JSON, undiscovered parts stay undiscovered")
    func cacheRoundTrip() throws {
        var record = Self.record()
        record.gattCache = GATTCache(services: Self.tree, databaseHash: Self.hash)
        let data = try JSONEncoder().encode(record)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"gattServices\"") && text.contains("\"6E400001-B5A3-F393-E0A9-E50E24DCCA9E\""))
        let decoded = try JSONDecoder().decode(BondRecord.self, from: data)
        #expect(decoded == record)
        #expect(decoded.gattCache?.services[1].characteristicsDiscovered == false)
        #expect(decoded.gattCache?.services[2].includedServicesDiscovered == false)
        #expect(decoded.gattCache?.services[2].characteristicsDiscovered == true)
        #expect(decoded.gattCache?.serviceChangedValueHandles == [3])
    }

    @Test("a file written before the GATT cache existed still loads, with no cache")
    func oldFile() throws {
        let old = """
        {"version": 1, "bonds": [
          {"identityAddress": "00:1B:DC:07:32:EF", "identityAddressType": "public",
           "peerIdentifier": "0F000000-0000-4000-8000-000000000001", "keySize": 16,
           "securityLevel": "authenticatedSecureConnections", "secureConnectionsLongTermKey": "00000000000000000000000000000099",
           "clientConfigurations": {"0x002A": 1}, "databaseHash": "a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5",
           "created": 1700000000, "updated": 1700000000}]}
        """
        let store = try JSONDecoder().decode(BondStore.self, from: Data(old.utf8))
        let record = try #require(store[Self.peer])
        #expect(record.gattServices == nil)
        #expect(record.gattCache == nil, "a hash without a tree is no cache")
        #expect(record.clientConfigurations == [0x2A: 1])
    }

    @Test("a cache with a bad UUID or a backwards handle range is refused as corrupt", arguments: [
        #"[{"uuid": "nope", "primary": true, "startHandle": 1, "endHandle": 5}]"#,
        #"[{"uuid": "180D", "primary": true, "startHandle": 9, "endHandle": 5}]"#,
        #"[{"uuid": "180D", "primary": true, "startHandle": 1, "endHandle": 9, "characteristics": [{"uuid": "2A37", "declarationHandle": 4, "valueHandle": 3, "endHandle": 9, "properties": 16}]}]"#,
    ])
    func corruptCache(_ services: String) throws {
        let text = """
        {"identityAddress": "00:1B:DC:07:32:EF", "identityAddressType": "public", "peerIdentifier": "x", "keySize": 16,
         "securityLevel": "unauthenticated", "gattServices": \(services), "created": 1, "updated": 1}
        """
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(BondRecord.self, from: Data(text.utf8)) }
    }

    @Test("each CCCD change of a bonded client is saved at once; an unchanged value or an unbonded peer writes nothing")
    func clientConfigurationSaves() async throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        let keeper = BondKeeper(store: BondStore(records: [Self.record()]), file: file)
        try await keeper.setClientConfiguration(0x0001, valueHandle: 0x2A, for: Self.peer)
        #expect(try file.load()[Self.peer]?.clientConfigurations == [0x2A: 1], "on disk before any disconnection")
        try await keeper.setClientConfiguration(0x0002, valueHandle: 0x40, for: Self.peer)
        #expect(try file.load()[Self.peer]?.clientConfigurations == [0x2A: 1, 0x40: 2])
        try await keeper.setClientConfiguration(0x0000, valueHandle: 0x2A, for: Self.peer)
        #expect(try file.load()[Self.peer]?.clientConfigurations == [0x40: 2], "zero removes the value")

        try FileManager.default.removeItem(atPath: file.path)
        try await keeper.setClientConfiguration(0x0002, valueHandle: 0x40, for: Self.peer)
        try await keeper.setClientConfiguration(0x0001, valueHandle: 0x2A, for: BluetoothAddress(0xC0_00_00_00_00_01, kind: .random))
        #expect(!FileManager.default.fileExists(atPath: file.path), "nothing changed for the bond, and no bond for the stranger")
    }

    @Test("the GATT cache is saved and forgotten; sign counters are taken once and saved before use")
    func cacheAndCounters() async throws {
        let scratch = try ScratchDirectory()
        let file = BondStoreFile(path: scratch.path + "/bonds.json")
        let keeper = BondKeeper(store: BondStore(records: [Self.record()]), file: file)
        let cache = GATTCache(services: Self.tree, databaseHash: Self.hash)
        try await keeper.setGATTCache(cache, for: Self.peer)
        #expect(try file.load()[Self.peer]?.gattCache == cache)
        try await keeper.setGATTCache(nil, for: Self.peer)
        #expect(try file.load()[Self.peer]?.gattCache == nil)
        #expect(try file.load()[Self.peer]?.databaseHash == nil)

        let first = try #require(await keeper.takeLocalSignCounter(for: Self.peer))
        let second = try #require(await keeper.takeLocalSignCounter(for: Self.peer))
        #expect(first.csrk == 0x5151 && first.counter == 0 && second.counter == 1)
        #expect(try file.load()[Self.peer]?.localKeys.signingKey?.signCounter == 2, "the next counter is on disk")
        try await keeper.setPeerSignCounter(7, for: Self.peer)
        #expect(try file.load()[Self.peer]?.peerKeys.signingKey == BondSigningKey(key: 0x7777, signCounter: 7))
    }
}
