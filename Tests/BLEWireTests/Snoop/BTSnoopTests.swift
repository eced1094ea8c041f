import BLEWire
import Testing

extension BTSnoopTests {
    @Test("The writer produces the tshark-checked fixture byte for byte")
    func writerMatchesFixture() throws {
        var writer = BTSnoop.Writer()
        var file: [UInt8] = []
        for (index, packet) in Self.packets.enumerated() {
            file += try writer.bytes(forH4Packet: try Self.bytes(packet.hex), direction: packet.direction,
                                     unixMicroseconds: Self.start + Int64(index) * 1000)
        }
        #expect(writer.hasWrittenHeader)
        #expect(Hex.encode(file) == Hex.encode(try Self.bytes(Self.fixture)))
        #expect(Array(file.prefix(16)) == BTSnoop.Writer.headerBytes)
    }

    @Test("The reader returns every record of the fixture with its flags, time and packet")
    func readerReadsFixture() throws {
        var reader = try BTSnoop.Reader(try Self.bytes(Self.fixture))
        #expect(reader.header.datalink == .hciUART)
        let records = try reader.readAll()
        #expect(records.count == Self.packets.count)
        #expect(reader.recordIndex == Self.packets.count)
        let kinds: [BTSnoop.PacketKind] = [.command, .event, .command, .event, .event, .aclData, .aclData]
        for (index, record) in records.enumerated() {
            #expect(record.direction == Self.packets[index].direction)
            #expect(record.isCommandOrEvent == (index < 5))
            #expect(record.unixMicroseconds == Self.start + Int64(index) * 1000)
            #expect(record.originalLength == UInt32(record.data.count))
            #expect(record.cumulativeDrops == 0)
            #expect(Hex.encode(record.data) == Self.packets[index].hex)
            let packet = try record.hciPacket(datalink: reader.header.datalink)
            #expect(packet.kind == kinds[index])
            #expect(packet.packet.count == record.data.count - 1)
        }
        #expect(records[0].timestamp == 0x00E2_E7D7_274D_C000)
        #expect(records[0].packetFlags == 2 && records[1].packetFlags == 3 && records[5].packetFlags == 0 && records[6].packetFlags == 1)
        #expect(try reader.next() == nil)
        // The SMP PDU inside the ACL record (ACL header 4 + L2CAP header 4 octets) is the c1 example's preq.
        let acl = try records[5].hciPacket(datalink: .hciUART).packet
        let request = try SMP.PairingRequest(decoding: acl.dropFirst(8))
        #expect(request.ioCapability == .displayYesNo && request.maximumEncryptionKeySize == 16)
    }

    @Test("The header is btsnoop, version 1, datalink 1002, big-endian")
    func header() throws {
        let bytes = BTSnoop.Header().encoded()
        #expect(Hex.encode(bytes) == "6274736e6f6f700000000001000003ea")
        #expect(try BTSnoop.Header(decoding: bytes) == BTSnoop.Header(datalink: .hciUART))
        var wrongMagic = bytes
        wrongMagic[0] = 0x42
        #expect(throws: WireError(field: "BTSnoop.Header.identification", reason: .constraint("not a btsnoop file"))) {
            try BTSnoop.Header(decoding: wrongMagic)
        }
        var version2 = bytes
        version2[11] = 2
        #expect(throws: WireError(field: "BTSnoop.Header.version", reason: .invalidValue(2))) {
            try BTSnoop.Header(decoding: version2)
        }
        #expect(throws: WireError.self) { try BTSnoop.Reader(Array(bytes.prefix(15))) }
        #expect(try BTSnoop.Reader(bytes).header.datalink.isSupported)
    }

    @Test("An unknown datalink is reported, not trapped")
    func unknownDatalink() throws {
        var bytes = try Self.bytes(Self.fixture)
        bytes[14] = 0x07 // datalink 0x07EA = 2026
        var reader = try BTSnoop.Reader(bytes)
        #expect(reader.header.datalink.rawValue == 2026)
        #expect(!reader.header.datalink.isSupported)
        #expect(reader.header.datalink.description == "2026 (unknown)")
        let record = try #require(try reader.next())
        #expect(throws: WireError(field: "BTSnoop.Header.datalink", reason: .unknownCode(2026))) {
            try record.hciPacket(datalink: reader.header.datalink)
        }
        #expect(throws: WireError.self) { try record.hciPacket(datalink: .linuxMonitor) }
    }

    @Test("A truncated final record throws naming its index")
    func truncatedRecord() throws {
        let bytes = try Self.bytes(Self.fixture)
        var reader = try BTSnoop.Reader(Array(bytes.dropLast()))
        for _ in 0 ..< 6 { _ = try reader.next() }
        #expect(throws: WireError(field: "BTSnoop.Record[6].data", reason: .lengthMismatch(declared: 16, actual: 15))) {
            try reader.next()
        }
        var shortHeader = try BTSnoop.Reader(Array(bytes.prefix(16 + 28 + 10)))
        _ = try shortHeader.next()
        #expect(throws: WireError(field: "BTSnoop.Record[1].packetFlags", reason: .truncated(needed: 4, available: 2))) {
            try shortHeader.next()
        }
    }

    @Test("An included length over the original length is rejected; a smaller one is a snapped packet")
    func lengths() throws {
        let over = try Self.bytes("00000003 00000004 00000002 00000000 00e2e7d7274dc000 01030c00")
        #expect(throws: WireError.self) { try BTSnoop.Record(decoding: over) }
        let snapped = try BTSnoop.Record(decoding: try Self.bytes("00000010 00000004 00000002 00000000 00e2e7d7274dc000 01030c00"))
        #expect(snapped.originalLength == 16 && snapped.data.count == 4)
        #expect(Hex.encode(snapped.encoded()).hasPrefix("0000001000000004"))
    }

    @Test("Datalink 1001 (H1) tells commands, events and data apart by the flags")
    func h1Datalink() throws {
        let command = BTSnoop.Record(direction: .sent, isCommandOrEvent: true, timestamp: 0, data: [0x03, 0x0C, 0x00])
        let event = BTSnoop.Record(direction: .received, isCommandOrEvent: true, timestamp: 0, data: [0x0E, 0x01, 0x01])
        let data = BTSnoop.Record(direction: .received, isCommandOrEvent: false, timestamp: 0, data: [0x40, 0x20, 0x00, 0x00])
        #expect(try command.hciPacket(datalink: .hciUnencapsulated).kind == .command)
        #expect(try event.hciPacket(datalink: .hciUnencapsulated).kind == .event)
        let acl = try data.hciPacket(datalink: .hciUnencapsulated)
        #expect(acl.kind == .aclData && acl.packet == [0x40, 0x20, 0x00, 0x00])
        // Under H4 the first octet is the packet type: 0x03 is synchronous data.
        #expect(try command.hciPacket(datalink: .hciUART).kind == .synchronousData)
    }

    @Test("Records for H4 packets refuse an empty packet or an unknown type octet")
    func recordFromH4() throws {
        #expect(throws: WireError.self) { try BTSnoop.Record(h4Packet: [], direction: .sent, unixMicroseconds: 0) }
        #expect(throws: WireError.self) { try BTSnoop.Record(h4Packet: [0x06, 0x00], direction: .sent, unixMicroseconds: 0) }
        let iso = try BTSnoop.Record(h4Packet: [0x05, 0x01], direction: .received, unixMicroseconds: -1)
        #expect(!iso.isCommandOrEvent && iso.packetFlags == 1)
        #expect(iso.timestamp == BTSnoop.unixEpochMicroseconds - 1)
        var writer = BTSnoop.Writer(cumulativeDrops: 3)
        let first = try writer.bytes(forH4Packet: [0x04, 0x0E, 0x00], direction: .received, unixMicroseconds: 0)
        let second = try writer.bytes(forH4Packet: [0x04, 0x0E, 0x00], direction: .received, unixMicroseconds: 0)
        #expect(first.count == 16 + 24 + 3 && second.count == 24 + 3)
        #expect(Array(second[12 ..< 16]) == [0, 0, 0, 3])
        #expect(throws: WireError.self) { try writer.bytes(forH4Packet: [], direction: .sent, unixMicroseconds: 0) }
    }

    @Test("Generated records survive a round trip, other flag bits included")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 0xB75)
        var file = BTSnoop.Header(datalink: .hciUnencapsulated).encoded()
        var expected: [BTSnoop.Record] = []
        for _ in 0 ..< 300 {
            let data = generator.bytes(in: 0 ... 40)
            let record = BTSnoop.Record(
                direction: Bool.random(using: &generator) ? .sent : .received,
                isCommandOrEvent: Bool.random(using: &generator),
                timestamp: Int64(bitPattern: generator.next()), data: data[...],
                originalLength: UInt32(data.count) + UInt32.random(in: 0 ... 3, using: &generator),
                cumulativeDrops: UInt32.random(in: .min ... .max, using: &generator),
                otherFlags: UInt32.random(in: .min ... .max, using: &generator))
            #expect(try BTSnoop.Record(decoding: record.encoded()) == record)
            file += record.encoded()
            expected.append(record)
        }
        var reader = try BTSnoop.Reader(file)
        #expect(reader.header.datalink == .hciUnencapsulated)
        #expect(try reader.readAll() == expected)
    }

    @Test("Malformed headers, records and files never trap")
    func malformed() throws {
        let bytes = try Self.bytes(Self.fixture)
        MalformedInput.check(Array(bytes.prefix(16)), as: BTSnoop.Header.self)
        let firstRecord = Array(bytes[16 ..< 44])
        let rejected = MalformedInput.check(firstRecord, as: BTSnoop.Record.self)
        #expect(rejected >= firstRecord.count)
        #expect(throws: WireError.self) { try BTSnoop.Record(decoding: Array(firstRecord.dropLast())) }
        // A whole file: the last two records, so the mutation count stays small.
        let file = Array(bytes.prefix(16)) + Array(bytes[(bytes.count - 80)...])
        MalformedInput.check(file) { (input: [UInt8]) throws(WireError) -> [UInt8] in
            var reader = try BTSnoop.Reader(input)
            var out = reader.header.encoded()
            for record in try reader.readAll() {
                _ = try? record.hciPacket(datalink: reader.header.datalink)
                out += record.encoded()
            }
            return out
        }
    }
}
