import BLEHost
import BLEWire
import Testing

@Suite("GATT server: Prepare Write, Execute Write")
struct GATTServerQueuedWriteTests {
    @Test("Prepared parts are echoed and written together by Execute Write")
    func longWrite() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("16 1A00 0000 AABB") == hex("17 1A00 0000 AABB"))
        #expect(server.answer("16 1A00 0200 CC") == hex("17 1A00 0200 CC"))
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
        let outputs = server.handle(hex("18 01"), from: 0x40, security: .unencrypted)
        #expect(outputs == [.send(connection: 0x40, pdu: hex("19")),
                            .valueWritten(connection: 0x40, handle: 0x1A, value: hex("AABBCC"))])
        #expect(server.answer("0A 1A00") == hex("0B AABBCC"))
    }

    @Test("A 512-octet value written in 18-octet parts reads back identical")
    func fullLengthWrite() throws {
        var server = try GATTFixture.server()
        let value = (0 ..< 512).map { UInt8(truncatingIfNeeded: $0 * 7) }
        for offset in stride(from: 0, to: 512, by: 18) {
            let part = Array(value[offset ..< min(offset + 18, 512)])
            let request = ATT.PrepareWriteRequest(attributeHandle: 0x1A, valueOffset: UInt16(offset), partAttributeValue: part[...])
            let echo = ATT.PrepareWriteResponse(attributeHandle: 0x1A, valueOffset: UInt16(offset), partAttributeValue: part[...])
            #expect(server.handle(request.encoded(), from: 0x40, security: .unencrypted).sentPDUs == [echo.encoded()])
        }
        #expect(server.answer("18 01") == hex("19"))
        #expect(server.value(at: 0x1A) == value)
    }

    @Test("Execute Write with flags 0 cancels the queue and changes nothing")
    func cancel() throws {
        var server = try GATTFixture.server()
        _ = server.answer("16 1A00 0000 AABB")
        #expect(server.answer("18 00") == hex("19"))
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
        #expect(server.answer("18 01") == hex("19"))
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
    }

    @Test("Prepare Write errors: Invalid Handle, Write Not Permitted, Insufficient Authentication, Invalid PDU")
    func prepareErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("16 3000 0000 01") == hex("01 16 3000 01"))
        #expect(server.answer("16 1400 0000 01") == hex("01 16 1400 03"))
        #expect(server.answer("16 2200 0000 01") == hex("01 16 2200 05"))
        #expect(server.answer("16 1A00 00") == hex("01 16 0000 04"))
        #expect(server.answer("18 01") == hex("19"))
    }

    @Test("Prepare Write past the queue limit returns Prepare Queue Full")
    func queueFull() throws {
        var server = try GATTFixture.server(GATTServer.Configuration(prepareQueueLimit: 2))
        #expect(server.answer("16 1A00 0000 01") == hex("17 1A00 0000 01"))
        #expect(server.answer("16 1A00 0100 02") == hex("17 1A00 0100 02"))
        #expect(server.answer("16 1A00 0200 03") == hex("01 16 1A00 09"))
        #expect(server.answer("18 01") == hex("19"))
        #expect(server.value(at: 0x1A) == [1, 2])
    }

    @Test("An offset past the value built so far fails Execute Write with Invalid Offset and writes nothing")
    func invalidOffset() throws {
        var server = try GATTFixture.server()
        _ = server.answer("16 1A00 0000 0909")
        _ = server.answer("16 1700 0500 01")
        #expect(server.answer("18 01") == hex("01 18 1700 07"))
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
        #expect(server.value(at: 0x17) == [])
        #expect(server.answer("18 01") == hex("19"))
    }

    @Test("A failing entry leaves every value unchanged: Invalid Attribute Value Length names its handle")
    func atomicLength() throws {
        var server = try GATTFixture.server()
        _ = server.answer("16 1A00 0000 0909")
        _ = server.answer("16 0B00 0000 01")
        _ = server.answer("16 1700 0000 0102")
        #expect(server.answer("18 01") == hex("01 18 1700 0D"))
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
        #expect(server.answer("0A 0B00") == hex("0B 00"))
    }

    @Test("A prepared value longer than 512 octets fails with Invalid Attribute Value Length")
    func tooLong() throws {
        var server = try GATTFixture.server()
        _ = server.answer("16 1A00 6400" + String(repeating: "AA", count: 18))
        let request = ATT.PrepareWriteRequest(attributeHandle: 0x1A, valueOffset: 500, partAttributeValue: [UInt8](repeating: 1, count: 13)[...])
        _ = server.handle(request.encoded(), from: 0x40, security: .unencrypted)
        #expect(server.answer("18 01") == hex("01 18 1A00 07"))
        let fill = (0 ..< 28).map { ATT.PrepareWriteRequest(attributeHandle: 0x1A, valueOffset: UInt16($0 * 18), partAttributeValue: [UInt8](repeating: 2, count: 18)[...]) }
        for part in fill { _ = server.handle(part.encoded(), from: 0x40, security: .unencrypted) }
        _ = server.handle(request.encoded(), from: 0x40, security: .unencrypted)
        #expect(server.answer("18 01") == hex("01 18 1A00 0D"))
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
    }

    @Test("A prepared CCCD value with a bit the characteristic lacks fails with 0xFD")
    func preparedConfiguration() throws {
        var server = try GATTFixture.server()
        _ = server.answer("16 1200 0000 0200")
        #expect(server.answer("18 01") == hex("01 18 1200 FD"))
        _ = server.answer("16 1200 0000 01")
        _ = server.answer("16 1200 0100 00")
        let outputs = server.handle(hex("18 01"), from: 0x40, security: .unencrypted)
        #expect(outputs.contains(.subscriptionChanged(connection: 0x40, valueHandle: 0x11, notify: true, indicate: false)))
    }

    @Test("An Execute Write Request with reserved flags is an Invalid PDU")
    func reservedFlags() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("18 02") == hex("01 18 0000 04"))
        #expect(server.answer("18") == hex("01 18 0000 04"))
    }
}
