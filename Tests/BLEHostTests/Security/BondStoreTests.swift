import BLEHost
import BLEWire
import Foundation
import Testing

/// Bond records and the store value: key lookup for encryption, identity resolution and
/// the JSON form of docs/bonds.md.
@Suite("Bond records and store")
struct BondStoreTests {
    static let peerIRK: UInt128 = 0xEC02_34A3_57C8_AD05_3410_10A6_0A39_7D9B

    static func legacyRecord() -> BondRecord {
        BondRecord(
            identityAddress: BluetoothAddress(0xC0_1122_3344_55, kind: .random),
            peerIdentifier: "1B4E28BA-2FA1-41D2-883F-0016D3CCA427",
            keySize: 16, securityLevel: .authenticated,
            peerKeys: BondKeys(longTermKey: BondLongTermKey(key: 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10, ediv: 0x1234,
                                                            rand: 0xFEDC_BA98_7654_3210),
                               identityResolvingKey: peerIRK,
                               signingKey: BondSigningKey(key: 0xAA, signCounter: 7)),
            localKeys: BondKeys(longTermKey: BondLongTermKey(key: 0x55, ediv: 0xBEEF, rand: 42), identityResolvingKey: 0x66),
            clientConfigurations: [0x002A: 1, 0x0100: 2],
            databaseHash: Array(0 ..< 16),
            created: 1_700_000_000, updated: 1_700_000_100
        )
    }

    static func secureConnectionsRecord() -> BondRecord {
        BondRecord(identityAddress: BluetoothAddress(0x00_1B_DC_07_32_EF), peerIdentifier: "0F000000-0000-4000-8000-000000000001",
                   secureConnectionsLongTermKey: 0x99, keySize: 16, securityLevel: .authenticatedSecureConnections,
                   created: 1_700_000_000)
    }

    @Test("as central, a legacy bond starts encryption with the peer's LTK, EDIV and Rand; SC with EDIV and Rand zero")
    func keyForStartingEncryption() {
        #expect(Self.legacyRecord().keyForStartingEncryption
            == BondLongTermKey(key: 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10, ediv: 0x1234, rand: 0xFEDC_BA98_7654_3210))
        #expect(Self.secureConnectionsRecord().keyForStartingEncryption == BondLongTermKey(key: 0x99, ediv: 0, rand: 0))
        #expect(Self.secureConnectionsRecord().isSecureConnections)
        #expect(!Self.legacyRecord().isSecureConnections)
    }

    @Test("as peripheral, an LTK request is answered only when EDIV and Rand match our key")
    func keyForRequest() {
        let legacy = Self.legacyRecord()
        #expect(legacy.keyForRequest(ediv: 0xBEEF, rand: 42) == 0x55)
        #expect(legacy.keyForRequest(ediv: 0xBEEF, rand: 43) == nil)
        #expect(legacy.keyForRequest(ediv: 0x1234, rand: 0xFEDC_BA98_7654_3210) == nil)
        let secure = Self.secureConnectionsRecord()
        #expect(secure.keyForRequest(ediv: 0, rand: 0) == 0x99)
        #expect(secure.keyForRequest(ediv: 1, rand: 0) == nil)
    }

    @Test("peer identifiers are version 4 UUIDs, fixed by the seed")
    func peerIdentifier() {
        var generator = GAPRandom(seed: 5)
        let identifier = BondRecord.makePeerIdentifier(using: &generator)
        #expect(UUID(uuidString: identifier) != nil)
        let parts = identifier.split(separator: "-")
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
        #expect(parts[2].first == "4")
        #expect(["8", "9", "A", "B"].contains(parts[3].first))
        var again = GAPRandom(seed: 5)
        #expect(BondRecord.makePeerIdentifier(using: &again) == identifier)
        #expect(BondRecord.makePeerIdentifier(using: &again) != identifier)
    }

    @Test("a store round-trips through JSON and keeps its identity and every record")
    func roundTrip() throws {
        let store = BondStore(localIdentityAddress: BluetoothAddress(0xD0_0000_0000_01, kind: .random),
                              localIdentityResolvingKey: 0x1234, records: [Self.legacyRecord(), Self.secureConnectionsRecord()])
        let data = try JSONEncoder().encode(store)
        #expect(try JSONDecoder().decode(BondStore.self, from: data) == store)
        #expect(store.sortedRecords.map(\.identityAddress.description) == ["00:1B:DC:07:32:EF", "C0:11:22:33:44:55"])
    }

    @Test("the JSON uses the documented field names and hex strings for keys")
    func jsonFieldNames() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(Self.legacyRecord()), as: UTF8.self)
        #expect(text.contains(#""identityAddress":"C0:11:22:33:44:55","identityAddressType":"random""#))
        #expect(text.contains(#""longTermKey":{"ediv":4660,"key":"0102030405060708090a0b0c0d0e0f10","rand":"fedcba9876543210"}"#))
        #expect(text.contains(#""identityResolvingKey":"ec0234a357c8ad05341010a60a397d9b""#))
        #expect(text.contains(#""signingKey":{"key":"000000000000000000000000000000aa","signCounter":7}"#))
        #expect(text.contains(#""clientConfigurations":{"0x002A":1,"0x0100":2}"#))
        #expect(text.contains(#""databaseHash":"000102030405060708090a0b0c0d0e0f""#))
        #expect(text.contains(#""securityLevel":"authenticated""#))
        #expect(text.contains(#""created":1700000000"#) && text.contains(#""updated":1700000100"#))
        #expect(!text.contains("secureConnectionsLongTermKey"))
    }

    @Test("bad hex, a short key, an unknown level, a bad key size or a duplicate identity is a decoding error")
    func malformed() throws {
        let good = String(decoding: try JSONEncoder().encode(BondStore(records: [Self.legacyRecord()])), as: UTF8.self)
        let bad = [
            good.replacingOccurrences(of: "ec0234a357c8ad05341010a60a397d9b", with: "zz0234a357c8ad05341010a60a397d9b"),
            good.replacingOccurrences(of: "ec0234a357c8ad05341010a60a397d9b", with: "ec0234"),
            good.replacingOccurrences(of: #""authenticated""#, with: #""excellent""#),
            good.replacingOccurrences(of: #""keySize":16"#, with: #""keySize":17"#),
            good.replacingOccurrences(of: #""random""#, with: #""static""#),
            good.replacingOccurrences(of: #""0x002A""#, with: #""42""#),
            good.replacingOccurrences(of: #""version":1"#, with: #""version":2"#),
        ]
        for text in bad {
            #expect(text != good)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(BondStore.self, from: Data(text.utf8)) }
        }
        let twice = String(decoding: try JSONEncoder().encode(BondStore(records: [Self.legacyRecord()])), as: UTF8.self)
        let record = String(decoding: try JSONEncoder().encode(Self.legacyRecord()), as: UTF8.self)
        let duplicated = twice.replacingOccurrences(of: "\"bonds\":[", with: "\"bonds\":[\(record),")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(BondStore.self, from: Data(duplicated.utf8)) }
    }

    @Test("a connection from the peer's RPA finds its bond through the IRK; an unknown address finds none")
    func resolveRecord() throws {
        var store = BondStore(records: [Self.legacyRecord(), Self.secureConnectionsRecord()])
        let rpa = BluetoothAddress(0x70_8194_0D_FBAA, kind: .random)
        #expect(try store.record(for: rpa)?.identityAddress == Self.legacyRecord().identityAddress)
        #expect(try store.record(for: BluetoothAddress(0x00_1B_DC_07_32_EF))?.isSecureConnections == true)
        #expect(try store.record(for: BluetoothAddress(0x41_0000_000001, kind: .random)) == nil)
        #expect(store.resolvingList == [ResolvingListEntry(identityAddress: Self.legacyRecord().identityAddress,
                                                           identityResolvingKey: Self.peerIRK)])
        #expect(store.record(peerIdentifier: "1b4e28ba-2fa1-41d2-883f-0016d3cca427") != nil)
        #expect(store.removeRecord(for: Self.legacyRecord().identityAddress) != nil)
        #expect(try store.record(for: rpa) == nil)
        #expect(store.removeRecord(for: Self.legacyRecord().identityAddress) == nil)
    }
}
