import BLEHost
import BLEWire
import Testing

/// Read and write procedures (Core 5.4, Vol 3, Part G, §4.8, §4.9, §4.12) byte for byte
/// against a scripted server, at the default ATT_MTU of 23 unless a test exchanges it.
@Suite("GATT client: reads and writes")
struct GATTClientReadWriteTests {
    static func value(_ count: Int, from start: UInt8 = 0) -> [UInt8] { (0 ..< count).map { start &+ UInt8(truncatingIfNeeded: $0) } }

    @Test("Read sends a Read Request and returns the value; an Error Response gives its code and handle")
    func read() {
        var harness = ClientHarness()
        let ok = harness.start(.read(0x0003))
        #expect(harness.takeSent() == [pdu("0A 03 00")])
        harness.peer(pdu("0B 48 69"))
        #expect(harness.result(ok) == .success(.value([0x48, 0x69])))
        let denied = harness.start(.read(0x0005))
        harness.peer(pdu("01 0A 05 00 02"))
        #expect(harness.result(denied) == .failure(.att(.readNotPermitted, handle: 5)))
    }

    @Test("Read Long continues with Read Blob while parts are full and stops at a short one")
    func readLong() {
        var harness = ClientHarness()
        let whole = Self.value(50)
        let id = harness.start(.readLong(0x0003))
        #expect(harness.takeSent() == [pdu("0A 03 00")])
        harness.peer([0x0B] + whole[0 ..< 22])
        #expect(harness.takeSent() == [pdu("0C 03 00 16 00")])
        harness.peer([0x0D] + whole[22 ..< 44])
        #expect(harness.takeSent() == [pdu("0C 03 00 2C 00")])
        harness.peer([0x0D] + whole[44 ..< 50])
        #expect(harness.takeSent().isEmpty)
        #expect(harness.result(id) == .success(.value(whole)))
    }

    @Test("Read Long of exactly 2 × (ATT_MTU − 1) octets ends on an empty Read Blob part")
    func readLongExactMultiple() {
        var harness = ClientHarness()
        let whole = Self.value(44)
        let id = harness.start(.readLong(0x0003))
        _ = harness.takeSent()
        harness.peer([0x0B] + whole[0 ..< 22])
        harness.peer([0x0D] + whole[22 ..< 44])
        #expect(harness.takeSent() == [pdu("0C 03 00 16 00"), pdu("0C 03 00 2C 00")])
        harness.peer([0x0D])
        #expect(harness.result(id) == .success(.value(whole)))
    }

    @Test("Read Long of exactly ATT_MTU − 1 octets ends on Attribute Not Long")
    func readLongAttributeNotLong() {
        var harness = ClientHarness()
        let whole = Self.value(22)
        let id = harness.start(.readLong(0x0003))
        harness.peer([0x0B] + whole)
        #expect(harness.takeSent() == [pdu("0A 03 00"), pdu("0C 03 00 16 00")])
        harness.peer(pdu("01 0C 03 00 0B"))
        #expect(harness.result(id) == .success(.value(whole)))
    }

    @Test("Read Long ends at 512 octets, the longest attribute value, without asking for more (Part F, §3.2.9)")
    func readLongEndsAt512() {
        var harness = ClientHarness()
        harness.exchangeMTU(129)
        let whole = Self.value(512)
        let id = harness.start(.readLong(0x0003))
        harness.peer([0x0B] + whole[0 ..< 128])
        for offset in stride(from: 128, to: 512, by: 128) { harness.peer([0x0D] + whole[offset ..< offset + 128]) }
        #expect(harness.takeSent() == [pdu("0A 03 00"), pdu("0C 03 00 80 00"), pdu("0C 03 00 00 01"), pdu("0C 03 00 80 01")])
        #expect(harness.result(id) == .success(.value(whole)))
    }

    @Test("Read Long fails with invalidResponse when the server sends past 512 octets, and asks for nothing more")
    func readLongPast512() {
        var harness = ClientHarness()
        let whole = Self.value(528)
        let id = harness.start(.readLong(0x0003))
        harness.peer([0x0B] + whole[0 ..< 22])
        for offset in stride(from: 22, to: 528, by: 22) { harness.peer([0x0D] + whole[offset ..< offset + 22]) }
        #expect(harness.takeSent().count == 24)
        guard case .failure(.invalidResponse)? = harness.result(id) else {
            Issue.record("expected invalidResponse, got \(String(describing: harness.result(id)))")
            return
        }
    }

    @Test("Read Multiple returns the values as the server concatenated them; fewer than two handles is refused unsent")
    func readMultiple() {
        var harness = ClientHarness()
        let id = harness.start(.readMultiple([0x0003, 0x0005]))
        #expect(harness.takeSent() == [pdu("0E 03 00 05 00")])
        harness.peer(pdu("0F 01 02 03"))
        #expect(harness.result(id) == .success(.value([1, 2, 3])))
        let single = harness.start(.readMultiple([0x0003]))
        #expect(harness.takeSent().isEmpty)
        guard case .failure(.invalidRequest)? = harness.result(single) else {
            Issue.record("expected invalidRequest, got \(String(describing: harness.result(single)))")
            return
        }
    }

    @Test("Read Multiple Variable completes a cut value with Read Blob and a missing one with Read")
    func readMultipleVariable() {
        var harness = ClientHarness()
        let first = Self.value(10, from: 0x10)
        let second = Self.value(20, from: 0x40)
        let id = harness.start(.readMultipleVariable([0x0003, 0x0005, 0x0006]))
        #expect(harness.takeSent() == [pdu("20 03 00 05 00 06 00")])
        // 22 octets: the first tuple whole, the second cut after 8 value octets, no third.
        harness.peer([0x21, 0x0A, 0x00] + first + [0x14, 0x00] + second[0 ..< 8])
        #expect(harness.takeSent() == [pdu("0C 05 00 08 00")])
        harness.peer([0x0D] + second[8...])
        #expect(harness.takeSent() == [pdu("0A 06 00")])
        harness.peer(pdu("0B 77"))
        #expect(harness.result(id) == .success(.values([first, second, [0x77]])))
    }

    @Test("Read Using Characteristic UUID reads the Database Hash for a cache check")
    func readDatabaseHash() {
        var harness = ClientHarness()
        let hash = Self.value(16, from: 0xA0)
        let id = harness.start(.readDatabaseHash)
        #expect(harness.takeSent() == [pdu("08 01 00 FF FF 2A 2B")])
        harness.peer([0x09, 0x12, 0x0E, 0x00] + hash)
        #expect(harness.takeSent() == [pdu("08 0F 00 FF FF 2A 2B")])
        harness.peer(pdu("01 08 0F 00 0A"))
        #expect(harness.result(id) == .success(.handleValues([GATTHandleValue(handle: 0x000E, value: hash)])))
        #expect(GATTCache.databaseHash(in: [GATTHandleValue(handle: 0x000E, value: hash)]) == hash)
        let none = harness.start(.readUsingCharacteristicUUID(BluetoothUUID(0x2A19), in: 0x0001 ... 0x0010))
        harness.peer(pdu("01 08 01 00 0A"))
        #expect(harness.result(none) == .success(.handleValues([])))
    }

    @Test("Write sends a Write Request; a value longer than ATT_MTU − 3 is refused unsent")
    func write() {
        var harness = ClientHarness()
        let id = harness.start(.write(0x0003, [0x01, 0x02]))
        #expect(harness.takeSent() == [pdu("12 03 00 01 02")])
        harness.peer([0x13])
        #expect(harness.result(id) == .success(.written))
        let long = harness.start(.write(0x0003, Self.value(21)))
        #expect(harness.takeSent().isEmpty)
        #expect(harness.result(long) == .failure(.valueTooLong(length: 21, maximum: 20)))
        let refused = harness.start(.write(0x0003, [0x01]))
        harness.peer(pdu("01 12 03 00 03"))
        #expect(harness.result(refused) == .failure(.att(.writeNotPermitted, handle: 3)))
    }

    @Test("Enabling notifications writes 0x0001 to the Client Characteristic Configuration descriptor")
    func configureCCCD() {
        var harness = ClientHarness()
        harness.start(.configure(.notification, descriptor: 0x0009))
        harness.start(.configure([.notification, .indication], descriptor: 0x000C))
        #expect(harness.takeSent() == [pdu("12 09 00 01 00")])
        harness.peer([0x13])
        #expect(harness.takeSent() == [pdu("12 0C 00 03 00")])
    }

    @Test("Write Long prepares parts of ATT_MTU − 5 octets, checks each echo and executes")
    func writeLong() {
        var harness = ClientHarness()
        let whole = Self.value(40)
        let id = harness.start(.writeLong(0x0003, whole))
        let parts = [pdu("16 03 00 00 00") + whole[0 ..< 18], pdu("16 03 00 12 00") + whole[18 ..< 36], pdu("16 03 00 24 00") + whole[36 ..< 40]]
        for part in parts {
            #expect(harness.takeSent() == [part])
            harness.peer([0x17] + part.dropFirst())
        }
        #expect(harness.takeSent() == [pdu("18 01")])
        harness.peer([0x19])
        #expect(harness.result(id) == .success(.written))
    }

    @Test("Write Long whose echo differs cancels with Execute Write flags 0x00 and fails")
    func writeLongEchoMismatch() {
        var harness = ClientHarness()
        let whole = Self.value(30)
        let id = harness.start(.writeLong(0x0003, whole))
        let first = pdu("16 03 00 00 00") + whole[0 ..< 18]
        #expect(harness.takeSent() == [first])
        var echo = [0x17] + first.dropFirst()
        echo[10] ^= 0xFF
        harness.peer(echo)
        #expect(harness.takeSent() == [pdu("18 00")])
        #expect(harness.result(id) == nil)
        harness.peer([0x19])
        guard case .failure(.invalidResponse)? = harness.result(id) else {
            Issue.record("expected invalidResponse, got \(String(describing: harness.result(id)))")
            return
        }
    }

    @Test("A Prepare Write refused by the server cancels the queue and fails with its error")
    func writeLongRefused() {
        var harness = ClientHarness()
        let id = harness.start(.writeLong(0x0003, Self.value(30)))
        _ = harness.takeSent()
        harness.peer(pdu("01 16 03 00 09"))
        #expect(harness.takeSent() == [pdu("18 00")])
        harness.peer([0x19])
        #expect(harness.result(id) == .failure(.att(.prepareQueueFull, handle: 3)))
    }

    @Test("A reliable write prepares every value, then executes once")
    func reliableWrite() {
        var harness = ClientHarness()
        let id = harness.start(.reliableWrite([GATTHandleValue(handle: 3, value: [1, 2, 3]), GATTHandleValue(handle: 5, value: [4, 5])]))
        #expect(harness.takeSent() == [pdu("16 03 00 00 00 01 02 03")])
        harness.peer(pdu("17 03 00 00 00 01 02 03"))
        #expect(harness.takeSent() == [pdu("16 05 00 00 00 04 05")])
        harness.peer(pdu("17 05 00 00 00 04 05"))
        #expect(harness.takeSent() == [pdu("18 01")])
        harness.peer([0x19])
        #expect(harness.result(id) == .success(.written))
    }

    @Test("Write Without Response and Signed Write go out at once, within their size limits")
    func commands() throws {
        var harness = ClientHarness()
        #expect(try harness.client.writeWithoutResponse([1, 2], to: 3, on: &harness.bearer) == [.send(pdu("52 03 00 01 02"))])
        #expect(throws: GATTClientError.valueTooLong(length: 21, maximum: 20)) {
            try harness.client.writeWithoutResponse(Self.value(21), to: 3, on: &harness.bearer)
        }
        let csrk: UInt128 = 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10
        let signed = try harness.client.signedWrite([1, 2], to: 3, csrk: csrk, signCounter: 1, on: &harness.bearer)
        guard case let .send(bytes)? = signed.first else {
            Issue.record("expected a PDU, got \(signed)")
            return
        }
        #expect(bytes.count == 17 && Array(bytes.prefix(9)) == pdu("D2 03 00 01 02 01 00 00 00"))
        #expect(ATTSigning.verify(try ATT.SignedWriteCommand(decoding: bytes), csrk: csrk))
        #expect(throws: GATTClientError.valueTooLong(length: 9, maximum: 8)) {
            try harness.client.signedWrite(Self.value(9), to: 3, csrk: csrk, signCounter: 2, on: &harness.bearer)
        }
    }

    @Test("After an MTU exchange, Write Long parts grow to ATT_MTU − 5")
    func writeLongAtLargerMTU() {
        var harness = ClientHarness()
        harness.exchangeMTU(100)
        let whole = Self.value(120)
        harness.start(.writeLong(0x0003, whole))
        #expect(harness.takeSent() == [pdu("16 03 00 00 00") + whole[0 ..< 95]])
    }
}
