import BLEWire
import Testing

/// The raw_h4_reset.py session from NOTES.md §5.2, both directions in order, plus the
/// ACL fragments: a realistic H4 stream of commands, events and data.
enum CapturedStream {
    static let packetsHex = [
        "01030c00", Captured.resetComplete,
        "01011000", Captured.readLocalVersionComplete,
        "01091000", Captured.readBDADDRComplete,
        "01022000", Captured.leReadBufferSizeComplete,
        "01010c08fffffbff07f8bf3d",
        "01012008ffff070000000000",
        "010b200701100010000000",
        "040e04010b2000",
        "010c20020100",
        "040e04010c2000",
        Captured.advIndReport, Captured.scanResponseReport, Captured.extendedReport,
        Captured.disconnectionComplete,
    ]

    static func packets() throws -> [[UInt8]] {
        var packets = try packetsHex.map { try #require(Hex.decode($0)) }
        packets.append(CapturedACL.firstFragment)
        packets.append(CapturedACL.secondFragment)
        packets.append([0x03, 0x06, 0x00, 0x02, 0xAA, 0xBB]) // SCO, handle 6
        packets.append([0x05, 0x60, 0x60, 0x01, 0x00, 0x42]) // ISO, handle 0x060
        return packets
    }
}

/// Feeds `stream` to a decoder in random chunks and collects packets until the decoder
/// needs more octets at the end, or until it throws.
private func deframe(_ stream: [UInt8], using generator: inout SeededGenerator, maxChunk: Int) throws(WireError) -> [H4.Packet] {
    var decoder = H4.StreamDecoder()
    var packets: [H4.Packet] = []
    var offset = 0
    while offset < stream.count {
        let size = Int.random(in: 1 ... maxChunk, using: &generator)
        let end = min(stream.count, offset + size)
        decoder.append(stream[offset ..< end])
        offset = end
        while let packet = try decoder.next() { packets.append(packet) }
    }
    return packets
}

@Suite("H4 framing and the stream decoder")
struct H4Tests {
    @Test("Packet indicators are the ones Vol 4 Part A §2 assigns")
    func packetTypes() {
        #expect(H4.PacketType.allCases.map(\.rawValue) == [0x01, 0x02, 0x03, 0x04, 0x05])
    }

    @Test("Captured H4 packets decode to the right kind and re-encode byte for byte")
    func capturedPackets() throws {
        for bytes in try CapturedStream.packets() {
            let packet = try H4.Packet(decoding: bytes)
            #expect(packet.packetType.rawValue == bytes[0])
            #expect(packet.encoded() == bytes)
        }
        let reset = try H4.Packet(decoding: [0x01, 0x03, 0x0C, 0x00])
        #expect(reset == .command(HCI.CommandPacket(opcode: HCI.Opcode(ogf: 0x03, ocf: 0x0003))))
    }

    @Test("An unknown packet indicator is an error naming it")
    func unknownIndicator() {
        #expect(throws: WireError(field: "H4.Packet.packetType", reason: .unknownCode(0x06))) {
            try H4.Packet(decoding: [0x06, 0x00])
        }
    }

    @Test("H4 packets of every kind round-trip with generated values")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 0x44)
        for _ in 0 ..< 300 {
            let packet: H4.Packet
            switch Int.random(in: 0 ..< 5, using: &generator) {
            case 0: packet = .command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: generator.uint16()), parameters: generator.slice(in: 0 ... 255)))
            case 1: packet = .acl(generator.aclPacket())
            case 2: packet = .sco(generator.synchronousPacket())
            case 3: packet = .event(HCI.EventPacket(eventCode: HCI.EventCode(rawValue: generator.uint8()), parameters: generator.slice(in: 0 ... 255)))
            default: packet = .iso(generator.isoPacket())
            }
            #expect(try H4.Packet(decoding: packet.encoded()) == packet)
        }
    }

    @Test("The stream decoder returns the same packets whatever the chunking")
    func chunkings() throws {
        let packets = try CapturedStream.packets()
        let stream = packets.flatMap { $0 }
        let expected = try packets.map { try H4.Packet(decoding: $0) }
        var generator = SeededGenerator(seed: 0x4A)
        for maxChunk in [1, 2, 3, 7, 64, stream.count] {
            for _ in 0 ..< 20 {
                #expect(try deframe(stream, using: &generator, maxChunk: maxChunk) == expected)
            }
        }
    }

    @Test("The stream decoder waits for the rest of a packet and keeps no consumed octets")
    func partialPacket() throws {
        var decoder = H4.StreamDecoder()
        #expect(try decoder.next() == nil)
        decoder.append([0x04, 0x05])
        #expect(try decoder.next() == nil)
        decoder.append([0x04, 0x00, 0x01])
        #expect(try decoder.next() == nil)
        decoder.append([0x00, 0x16, 0x04])
        #expect(try decoder.next() == .event(try capturedEvent(Captured.disconnectionComplete)))
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedCount == 1)
    }

    @Test("An unknown indicator stops the stream until reset")
    func unknownIndicatorInStream() throws {
        var decoder = H4.StreamDecoder()
        decoder.append([0x01, 0x03, 0x0C, 0x00, 0x09, 0x04, 0x10, 0x01, 0x00])
        #expect(try decoder.next() == .command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03))))
        let expected = WireError(field: "H4.StreamDecoder.packetType", reason: .unknownCode(0x09))
        #expect(throws: expected) { try decoder.next() }
        decoder.append([0x04, 0x10, 0x01, 0x00])
        #expect(throws: expected) { try decoder.next() }
        decoder.reset()
        #expect(decoder.bufferedCount == 0)
        decoder.append([0x04, 0x10, 0x01, 0x07])
        #expect(try decoder.next() == .event(HCI.EventPacket(eventCode: .hardwareError, parameters: [0x07])))
    }

    @Test("A well-framed but invalid packet is skipped and the stream goes on")
    func invalidPacketSkipped() throws {
        var decoder = H4.StreamDecoder()
        // ACL with reserved handle 0x0F00, then a Hardware Error event.
        decoder.append([0x02, 0x00, 0x2F, 0x01, 0x00, 0xAA, 0x04, 0x10, 0x01, 0x03])
        #expect(throws: WireError(field: "HCI.ACLPacket.connectionHandle", reason: .invalidValue(0x0F00))) {
            try decoder.next()
        }
        #expect(try decoder.next() == .event(HCI.EventPacket(eventCode: .hardwareError, parameters: [0x03])))
        #expect(try decoder.next() == nil)
    }

    @Test("A long stream is decoded in linear time with the buffer compacted")
    func longStream() throws {
        let packet = CapturedACL.firstFragment
        var decoder = H4.StreamDecoder()
        var count = 0
        // 20 000 packets (640 kB) fed in 1000-octet chunks without draining in between
        // every time: the buffer must be compacted, not grow with the stream.
        let chunk = Array([[UInt8]](repeating: packet, count: 1000).joined())
        for round in 0 ..< 20 {
            for start in stride(from: 0, to: chunk.count, by: 1000) {
                decoder.append(chunk[start ..< min(chunk.count, start + 1000)])
                if round % 2 == 0 { while try decoder.next() != nil { count += 1 } }
            }
            while try decoder.next() != nil { count += 1 }
            #expect(decoder.bufferedCount == 0)
        }
        #expect(count == 20_000)
    }

    @Test("The stream decoder survives every malformed variant of a captured stream, in random chunks")
    func malformedStream() throws {
        let stream = try CapturedStream.packets().prefix(12).flatMap { $0 }
        var generator = SeededGenerator(seed: 0x4D)
        let rejected = MalformedInput.check(stream) { (bytes: [UInt8]) throws(WireError) -> [UInt8] in
            let packets = try deframe(bytes, using: &generator, maxChunk: 17)
            return packets.flatMap { $0.encoded() }
        }
        #expect(rejected > 0)
        for packet in try CapturedStream.packets() {
            MalformedInput.check(packet, as: H4.Packet.self)
        }
    }
}
