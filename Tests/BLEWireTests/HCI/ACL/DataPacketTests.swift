import BLEWire
import Testing

/// ACL fragments as a patched Bumble controller sends a 405-octet L2CAP PDU (ATT Read
/// Response, 400-octet value) in 27-octet pieces: NOTES.md §5.2 gives the headers
/// `0201201b00…` (PB=0b10) and `0201101b00…` (PB=0b01). The data is reconstructed: L2CAP
/// length 401, CID 0x0004, opcode 0x0B, then the value 00 01 02 … the peer serves.
enum CapturedACL {
    static let value = (0 ..< 400).map { UInt8(truncatingIfNeeded: $0) }
    static let firstFragment = Hex.decode("0201201b00" + "91010400" + "0b")! + Array(value[0 ..< 22])
    static let secondFragment = Hex.decode("0201101b00")! + Array(value[22 ..< 49])
}

extension SeededGenerator {
    mutating func aclPacket() -> HCI.ACLPacket {
        HCI.ACLPacket(connectionHandle: connectionHandle(), packetBoundary: pick(HCI.ACLPacket.PacketBoundaryFlag.self),
                      broadcast: pick(HCI.ACLPacket.BroadcastFlag.self), data: slice(in: 0 ... 300))
    }

    mutating func synchronousPacket() -> HCI.SynchronousPacket {
        HCI.SynchronousPacket(connectionHandle: connectionHandle(), packetStatus: pick(HCI.SynchronousPacket.PacketStatus.self),
                              reservedBits: UInt8.random(in: 0 ... 3, using: &self), data: slice(in: 0 ... 255))
    }

    mutating func isoPacket() -> HCI.ISOPacket {
        HCI.ISOPacket(connectionHandle: connectionHandle(), packetBoundary: pick(HCI.ISOPacket.PacketBoundaryFlag.self),
                      hasTimestamp: bool(), reservedBits: UInt8.random(in: 0 ... 7, using: &self), payload: slice(in: 0 ... 300))
    }
}

@Suite("HCI ACL, synchronous and ISO data packets")
struct DataPacketTests {
    @Test("Captured ACL fragments: handle 1, first then continuing, 27 octets each")
    func capturedFragments() throws {
        let first = try HCI.ACLPacket(decoding: CapturedACL.firstFragment.dropFirst())
        #expect(first.connectionHandle == 0x0001)
        #expect(first.packetBoundary == .firstAutomaticallyFlushable)
        #expect(first.broadcast == .pointToPoint)
        #expect(first.data.count == 27)
        #expect(Array(first.data.prefix(5)) == [0x91, 0x01, 0x04, 0x00, 0x0B])
        let second = try HCI.ACLPacket(decoding: CapturedACL.secondFragment.dropFirst())
        #expect(second.packetBoundary == .continuing)
        #expect(second.data.first == 22)
        #expect(first.encoded() == Array(CapturedACL.firstFragment.dropFirst()))
        #expect(try H4.Packet(decoding: CapturedACL.secondFragment) == .acl(second))
    }

    @Test("A built ACL packet encodes handle, flags and length little-endian")
    func aclHeaderBits() {
        let packet = HCI.ACLPacket(connectionHandle: 0x0EFF, packetBoundary: .firstNonAutomaticallyFlushable, data: [0xAA, 0xBB])
        #expect(packet.encoded() == [0xFF, 0x0E, 0x02, 0x00, 0xAA, 0xBB])
        let complete = HCI.ACLPacket(connectionHandle: 0x0123, packetBoundary: .complete, broadcast: .reserved3, data: [])
        #expect(complete.encoded() == [0x23, 0xF1, 0x00, 0x00])
    }

    @Test("ACL data total length must match the octets present; reserved handles are refused")
    func aclLengthAndHandle() {
        #expect(throws: WireError(field: "HCI.ACLPacket.data", reason: .lengthMismatch(declared: 3, actual: 2))) {
            try HCI.ACLPacket(decoding: [0x01, 0x20, 0x03, 0x00, 0xAA, 0xBB])
        }
        #expect(throws: WireError.self) { try HCI.ACLPacket(decoding: [0x01, 0x20, 0x01, 0x00, 0xAA, 0xBB]) }
        #expect(throws: WireError(field: "HCI.ACLPacket.connectionHandle", reason: .invalidValue(0x0F00))) {
            try HCI.ACLPacket(decoding: [0x00, 0x2F, 0x00, 0x00])
        }
    }

    @Test("ACL packets round-trip with generated values")
    func aclRoundTrip() throws {
        var generator = SeededGenerator(seed: 0xAC1)
        for _ in 0 ..< 300 {
            let packet = generator.aclPacket()
            #expect(try HCI.ACLPacket(decoding: packet.encoded()) == packet)
            #expect(try H4.Packet(decoding: H4.Packet.acl(packet).encoded()) == .acl(packet))
        }
    }

    @Test("Synchronous packets round-trip, reserved bits kept")
    func synchronousRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x5C0)
        for _ in 0 ..< 300 {
            let packet = generator.synchronousPacket()
            #expect(try HCI.SynchronousPacket(decoding: packet.encoded()) == packet)
        }
        let known = HCI.SynchronousPacket(connectionHandle: 0x0006, packetStatus: .partiallyLost, reservedBits: 0b10, data: [1, 2])
        #expect(known.encoded() == [0x06, 0xB0, 0x02, 0x01, 0x02])
    }

    @Test("ISO packets round-trip: 14-bit length, timestamp flag, reserved bits kept")
    func isoRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x150)
        for _ in 0 ..< 300 {
            let packet = generator.isoPacket()
            #expect(try HCI.ISOPacket(decoding: packet.encoded()) == packet)
        }
        // Handle 0x0060, complete SDU with timestamp: header 0x6060, length 3.
        let known = try HCI.ISOPacket(decoding: [0x60, 0x60, 0x03, 0x00, 0x01, 0x02, 0x03])
        #expect(known.connectionHandle == 0x0060)
        #expect(known.packetBoundary == .complete)
        #expect(known.hasTimestamp)
        #expect(known.reservedBits == 0)
        #expect(Array(known.payload) == [1, 2, 3])
        // Reserved top bits of the length field are not part of the length.
        let reserved = try HCI.ISOPacket(decoding: [0x60, 0x20, 0x01, 0xC0, 0x09])
        #expect(reserved.payload == [0x09])
        #expect(reserved.reservedBits == 0b110)
        #expect(reserved.encoded() == [0x60, 0x20, 0x01, 0xC0, 0x09])
    }

    @Test("Every data packet decoder survives the malformed-input sweep")
    func malformed() throws {
        var generator = SeededGenerator(seed: 0xBAD)
        EventChecks.sweep(Array(CapturedACL.firstFragment.dropFirst()), as: HCI.ACLPacket.self)
        for _ in 0 ..< 3 {
            EventChecks.sweep(generator.aclPacket().encoded(), as: HCI.ACLPacket.self)
            EventChecks.sweep(generator.synchronousPacket().encoded(), as: HCI.SynchronousPacket.self)
            EventChecks.sweep(generator.isoPacket().encoded(), as: HCI.ISOPacket.self)
        }
        #expect(throws: WireError.self) { try HCI.SynchronousPacket(decoding: [0x01, 0x00]) }
        #expect(throws: WireError.self) { try HCI.ISOPacket(decoding: [0x01, 0x00, 0x05, 0x00, 0x01]) }
    }
}
