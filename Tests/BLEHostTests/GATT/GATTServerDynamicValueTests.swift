import BLEHost
import BLEWire
import Testing

@Suite("GATT server: values the app answers")
struct GATTServerDynamicValueTests {
    @Test("A Read of a dynamic value asks the app and answers with its value")
    func read() throws {
        var server = try GATTFixture.server()
        let asked = server.handle(hex("0A 1E00"), from: 0x40, security: .unencrypted)
        let request = try #require(asked.appReads.first)
        #expect(asked.count == 1)
        #expect(request.connection == 0x40 && request.handle == 0x1E && request.offset == 0 && request.expectsResponse)
        #expect(request.attributeType == GATTFixture.u2)
        let answered = server.respond(to: request.id, with: .success(hex("010203")))
        #expect(answered == [.send(connection: 0x40, pdu: hex("0B 010203"))])
        #expect(server.respond(to: request.id, with: .success([9])) == [])
    }

    @Test("A Read Blob hands the offset to the app, and the app's error is sent")
    func readBlob() throws {
        var server = try GATTFixture.server()
        let request = try #require(server.handle(hex("0C 1E00 0500"), from: 0x40, security: .unencrypted).appReads.first)
        #expect(request.offset == 5)
        #expect(server.respond(to: request.id, with: .failure(.invalidOffset)) == [.send(connection: 0x40, pdu: hex("01 0C 1E00 07"))])
    }

    @Test("The app's long answer is cut to ATT_MTU − 1")
    func longAnswer() throws {
        var server = try GATTFixture.server()
        let request = try #require(server.handle(hex("0A 1E00"), from: 0x40, security: .unencrypted).appReads.first)
        let answered = server.respond(to: request.id, with: .success(GATTFixture.longValue))
        #expect(answered.sentPDUs == [hex("0B" + GATTServerReadTests.long(0 ..< 22))])
    }

    @Test("Read By Type and Read Multiple wait for each dynamic value in turn")
    func multiAttribute() throws {
        var server = try GATTFixture.server()
        let first = try #require(server.handle(hex("0E 1400 1E00 2B00"), from: 0x40, security: .unencrypted).appReads.first)
        #expect(first.handle == 0x1E)
        let second = try #require(server.respond(to: first.id, with: .success([0xAA])).appReads.first)
        #expect(second.handle == 0x2B)
        #expect(server.respond(to: second.id, with: .success([0xBB, 0xCC])).sentPDUs == [hex("0F 01 AA BBCC")])
        let byType = try #require(server.handle(hex("08 0100 FFFF" + "F2DEBC9A785634127856341278563412"), from: 0x40,
                                                security: .unencrypted).appReads.first)
        #expect(server.respond(to: byType.id, with: .success([7, 8])).sentPDUs == [hex("09 04 1E00 0708")])
    }

    @Test("A Write Request to a dynamic value waits for the app, which may accept or refuse")
    func writeRequest() throws {
        var server = try GATTFixture.server()
        let request = try #require(server.handle(hex("12 2B00 0102"), from: 0x40, security: .unencrypted).appWrites.first)
        #expect(request.value == [1, 2] && request.offset == 0 && request.expectsResponse && request.handle == 0x2B)
        #expect(server.respond(to: request.id, with: .success([])) == [.send(connection: 0x40, pdu: hex("13"))])
        let refused = try #require(server.handle(hex("12 2B00 03"), from: 0x40, security: .unencrypted).appWrites.first)
        #expect(server.respond(to: refused.id, with: .failure(.application(0x80))) == [.send(connection: 0x40, pdu: hex("01 12 2B00 80"))])
    }

    @Test("A Write Command to a dynamic value goes to the app, whose answer is ignored")
    func writeCommand() throws {
        var server = try GATTFixture.server()
        let request = try #require(server.handle(hex("52 2B00 05"), from: 0x40, security: .unencrypted).appWrites.first)
        #expect(!request.expectsResponse)
        #expect(server.respond(to: request.id, with: .failure(.unlikelyError)) == [])
    }

    @Test("A new request drops the one waiting for the app; the late answer is ignored")
    func supersededRequest() throws {
        var server = try GATTFixture.server()
        let stale = try #require(server.handle(hex("0A 1E00"), from: 0x40, security: .unencrypted).appReads.first)
        #expect(server.answer("0A 1400") == hex("0B 01"))
        #expect(server.respond(to: stale.id, with: .success([1])) == [])
    }

    @Test("Execute Write sends merged dynamic parts to the app and answers once all are accepted")
    func executeWrite() throws {
        var server = try GATTFixture.server()
        _ = server.answer("16 2B00 0000 0102")
        _ = server.answer("16 2B00 0200 03")
        _ = server.answer("16 1A00 0000 AA")
        let writes = server.handle(hex("18 01"), from: 0x40, security: .unencrypted).appWrites
        #expect(writes.map(\.value) == [[1, 2, 3]])
        #expect(writes.first?.offset == 0)
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
        let id = try #require(writes.first?.id)
        let done = server.respond(to: id, with: .success([]))
        #expect(done == [.send(connection: 0x40, pdu: hex("19")), .valueWritten(connection: 0x40, handle: 0x1A, value: [0xAA])])
    }

    @Test("When the app refuses a part of Execute Write, the stored values stay unchanged")
    func executeWriteRefused() throws {
        var server = try GATTFixture.server()
        _ = server.answer("16 1A00 0000 AA")
        _ = server.answer("16 2B00 0000 01")
        _ = server.answer("16 2B00 0500 02")
        let writes = server.handle(hex("18 01"), from: 0x40, security: .unencrypted).appWrites
        #expect(writes.map(\.handle) == [0x2B, 0x2B])
        #expect(writes.map(\.offset) == [0, 5])
        #expect(server.respond(to: writes[1].id, with: .failure(.writeRequestRejected)) == [])
        #expect(server.respond(to: writes[0].id, with: .success([])) == [.send(connection: 0x40, pdu: hex("01 18 2B00 FC"))])
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
    }
}
