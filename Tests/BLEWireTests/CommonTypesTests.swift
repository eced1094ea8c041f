import BLEWire
import Testing

@Suite("UUIDs and addresses")
struct CommonTypesTests {
    @Test("A 16-bit UUID equals its 128-bit form on the Base UUID")
    func shortEqualsLong() throws {
        let short = try #require(BluetoothUUID("180D"))
        let long = try #require(BluetoothUUID("0000180d-0000-1000-8000-00805f9b34fb"))
        #expect(short == long)
        #expect(short.hashValue == long.hashValue)
        #expect(long.shortest.width == .bits16)
        #expect(long.description == "180D")
        #expect(BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF0).description
            == "12345678-1234-5678-1234-56789ABCDEF0")
    }

    @Test("UUID text that CBUUID rejects is rejected")
    func rejectsBadText() {
        for text in ["", "18D", "180G", "0000180D-0000-1000-8000-00805F9B34F", "0000180D00001000800000805F9B34FBAA", "12345"] {
            #expect(BluetoothUUID(text) == nil, "\(text)")
        }
        #expect(BluetoothUUID("12345678")?.width == .bits32)
    }

    @Test("UUIDs encode little-endian in their width and decode from 2, 4 or 16 octets")
    func uuidWire() throws {
        var writer = ByteWriter()
        BluetoothUUID(0x2A37).encode(to: &writer)
        #expect(writer.bytes == [0x37, 0x2A])
        let long = BluetoothUUID(uuid128: 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF)
        let bytes = long.encoded16()
        #expect(bytes.first == 0xFF && bytes.last == 0x00)
        #expect(try BluetoothUUID(decoding: bytes[...]) == long)
        #expect(throws: WireError.self) { try BluetoothUUID(decoding: [1, 2, 3][...]) }
    }

    @Test("Address text, wire order and random sub-type")
    func addresses() throws {
        let address = try #require(BluetoothAddress("c0:11:22:33:44:55", kind: .random))
        #expect(address.description == "C0:11:22:33:44:55")
        #expect(address.littleEndianBytes == [0x55, 0x44, 0x33, 0x22, 0x11, 0xC0])
        #expect(address.randomSubtype == .static)
        #expect(BluetoothAddress(0x4000_0000_0001, kind: .random).randomSubtype == .resolvablePrivate)
        #expect(BluetoothAddress(0x0000_0000_0001, kind: .random).randomSubtype == .nonResolvablePrivate)
        #expect(BluetoothAddress(0x8000_0000_0001, kind: .random).randomSubtype == .reserved)
        #expect(BluetoothAddress(0x8000_0000_0001).randomSubtype == nil)
        #expect(BluetoothAddress("C0:11:22:33:44") == nil)
        #expect(BluetoothAddress("C0:11:22:33:44:GG") == nil)
    }

    @Test("Status codes are total and named")
    func statusCodes() {
        for raw in UInt8.min ... UInt8.max {
            #expect(HCI.StatusCode(rawValue: raw).rawValue == raw)
        }
        #expect(HCI.StatusCode(rawValue: 0x0C) == .commandDisallowed)
        #expect(HCI.StatusCode(rawValue: 0x3D).description == "Connection Terminated due to MIC Failure (0x3D)")
        #expect(HCI.StatusCode(rawValue: 0x3F) == .unlisted(0x3F))
    }

    @Test("Hex text round-trips and rejects junk")
    func hex() {
        #expect(Hex.decode("02 01:06-1a") == [0x02, 0x01, 0x06, 0x1A])
        #expect(Hex.encode([0x0A, 0xFF]) == "0aff")
        #expect(Hex.decode("0") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test("The byte reader throws naming the field when input ends")
    func readerTruncation() {
        var reader = ByteReader([0x01])
        #expect(throws: WireError(field: "x", reason: .truncated(needed: 2, available: 1))) {
            try reader.readUInt16("x")
        }
    }
}

extension BluetoothUUID {
    fileprivate func encoded16() -> [UInt8] {
        var writer = ByteWriter()
        encode(to: &writer)
        return writer.bytes
    }
}
