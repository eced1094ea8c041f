import BLEWire
import Testing

@Suite("Advertising data")
struct AdvertisingDataTests {
    /// A real iBeacon frame (Bumble `peer.py ibeacon`, seen by tshark and in
    /// /work/shared/interop/NOTES.md §5.1): Flags 0x06 and Apple manufacturer data.
    static let iBeacon = "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"
    /// Bumble's ADV_IND data (NOTES.md §5.2 shows `02010603030f1811…0102`, 31 octets; the
    /// middle is rebuilt from `peer.py advertise_payload`): Flags, 16-bit UUID 180F,
    /// 128-bit UUID 12345678-1234-5678-1234-56789ABCDEF0, manufacturer 0xFFFF + 01 02.
    static let bumbleAdvertising = "020106" + "03030f18" + "1107f0debc9a78563412785634127856341205" + "ffffff0102"
    /// Bumble's scan response (NOTES.md §5.1): "BumblePeer" and TX power 0.
    static let bumbleScanResponse = "0b0942756d626c6550656572020a00"

    static func bytes(_ hex: String) throws -> [UInt8] { try #require(Hex.decode(hex)) }

    @Test("A real iBeacon frame decodes to flags and Apple manufacturer data")
    func iBeaconFrame() throws {
        let bytes = try Self.bytes(Self.iBeacon)
        let data = try AdvertisingData(decoding: bytes)
        #expect(data.structures.count == 2)
        #expect(data.flags == [.leGeneralDiscoverable, .brEdrNotSupported])
        let manufacturer = try #require(data.manufacturerData)
        #expect(manufacturer.companyIdentifier == 0x004C)
        #expect(Hex.encode(manufacturer.data) == "0215e2c56db5dffb48d2b060d0f5a71096e000010002c5")
        #expect(manufacturer.data.last == 0xC5) // measured power -59 dBm
        #expect(data.localName == nil && data.serviceUUIDs == nil && data.txPowerLevel == nil)
        #expect(data.encoded() == bytes)
        let built = AdvertisingData([
            .flags([.leGeneralDiscoverable, .brEdrNotSupported]),
            .manufacturerData(company: 0x004C, data: Array(manufacturer.data)),
        ])
        #expect(built == data)
        #expect(try built.encodedLegacy() == bytes)
    }

    @Test("Bumble's advertising data lists 16- and 128-bit services and fills 31 octets")
    func bumbleAdvertisingData() throws {
        let bytes = try Self.bytes(Self.bumbleAdvertising)
        #expect(bytes.count == 31)
        let data = try AdvertisingData(decoding: bytes)
        #expect(data.flags == [.leGeneralDiscoverable, .brEdrNotSupported])
        let custom = try #require(BluetoothUUID("12345678-1234-5678-1234-56789ABCDEF0"))
        #expect(data.serviceUUIDs == [BluetoothUUID(0x180F), custom])
        #expect(data.serviceUUIDs?.last?.width == .bits128)
        #expect(data.isServiceListComplete)
        #expect(data.manufacturerData == AdvertisingData.ManufacturerData(companyIdentifier: 0xFFFF, data: [1, 2]))
        #expect(data.encodedLength == 31)
        #expect(try data.encodedLegacy() == bytes)
        let built = AdvertisingData([
            .flags([.leGeneralDiscoverable, .brEdrNotSupported]), .completeList16([0x180F]),
            .completeList128([0x1234_5678_1234_5678_1234_5678_9ABC_DEF0]), .manufacturerData(company: 0xFFFF, data: [1, 2]),
        ])
        #expect(built.encoded() == bytes)
    }

    @Test("Bumble's scan response carries the name BumblePeer and TX power 0")
    func bumbleScanResponse() throws {
        let bytes = try Self.bytes(Self.bumbleScanResponse)
        let data = try AdvertisingData(decoding: bytes)
        #expect(data.completeLocalName == "BumblePeer")
        #expect(data.localName == "BumblePeer")
        #expect(data.shortenedLocalName == nil)
        #expect(data.txPowerLevel == 0)
        #expect(data.flags == nil)
        #expect(AdvertisingData([.completeLocalName("BumblePeer"), .txPowerLevel(0)]).encoded() == bytes)
    }

    @Test("A zero length octet ends the data and the padding is not kept")
    func padding() throws {
        let data = try AdvertisingData(decoding: try Self.bytes("020106 00 0000 ffff"))
        #expect(data.structures == [AdvertisingData.Structure(type: .flags, data: [0x06])])
        #expect(data.encoded() == [0x02, 0x01, 0x06])
        #expect(try AdvertisingData(decoding: [UInt8]()).structures.isEmpty)
        #expect(try AdvertisingData(decoding: [0x00]).structures.isEmpty)
    }

    @Test("A length that runs past the end throws naming the structure")
    func overrun() throws {
        #expect(throws: WireError(field: "AdvertisingData.structures[1].length", reason: .lengthMismatch(declared: 5, actual: 4))) {
            try AdvertisingData(decoding: try Self.bytes("020106 05 09 414243"))
        }
        #expect(throws: WireError.self) { try AdvertisingData(decoding: try Self.bytes(Self.iBeacon).dropLast()) }
    }

    @Test("Unknown AD types are kept raw and round-trip")
    func unknownType() throws {
        let bytes = try Self.bytes("03990102 0133")
        let data = try AdvertisingData(decoding: bytes)
        #expect(data.structures.map(\.type.rawValue) == [0x99, 0x33])
        #expect(data.structures.first?.type.name == nil)
        #expect(data.structures.first?.type.description == "AD type 0x99")
        #expect(data.structures.last?.data.isEmpty == true)
        #expect(data.encoded() == bytes)
        try data.validate()
    }

    @Test("Over 31 octets is refused for legacy advertising, naming the budget")
    func legacyBudget() throws {
        let data = AdvertisingData([.flags([.leGeneralDiscoverable]), .completeLocalName(String(repeating: "x", count: 27))])
        #expect(data.encodedLength == 32)
        do {
            _ = try data.encodedLegacy()
            Issue.record("32 octets must not fit legacy advertising")
        } catch {
            #expect(error.field == "AdvertisingData")
            #expect(error.description.contains("31-octet legacy advertising budget"))
        }
        #expect(throws: WireError.self) { try data.validateLegacy() }
        #expect(try data.encodedExtended().count == 32)
        let huge = AdvertisingData(Array(repeating: .manufacturerData(company: 1, data: [UInt8](repeating: 0, count: 250)), count: 7))
        #expect(throws: WireError.self) { try huge.encodedExtended() }
    }

    @Test("Malformed content of a known type: the accessor is nil, the structure is kept, validate names it")
    func malformedContent() throws {
        let bytes = try Self.bytes("030a0102 0403 0d18 ff 020201")
        let data = try AdvertisingData(decoding: bytes)
        #expect(data.structures.count == 3)
        #expect(data.txPowerLevel == nil)
        #expect(data.serviceUUIDs == nil)
        #expect(data.encoded() == bytes)
        #expect(throws: WireError(field: "AdvertisingData.structures[0] (Tx Power Level (0x0A))",
                                  reason: .constraint("2 octets, expected 1"))) {
            try data.validate()
        }
        let badList = try AdvertisingData(decoding: try Self.bytes("04030d18ff"))
        #expect(throws: WireError(field: "AdvertisingData.structures[0] (Complete List of 16-bit Service UUIDs (0x03))",
                                  reason: .constraint("3 octets are not a multiple of 2"))) {
            try badList.validate()
        }
        try AdvertisingData(decoding: try Self.bytes(Self.bumbleAdvertising)).validate()
    }

    @Test("Invalid UTF-8 in a name decodes with replacement and the raw octets are kept")
    func invalidUTF8Name() throws {
        let bytes = try Self.bytes("040948ff49")
        let data = try AdvertisingData(decoding: bytes)
        #expect(data.completeLocalName == "H\u{FFFD}I")
        #expect(data.encoded() == bytes)
    }
}
