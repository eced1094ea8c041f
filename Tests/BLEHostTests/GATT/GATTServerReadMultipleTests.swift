import BLEHost
import BLEWire
import Testing

@Suite("GATT server: Read Multiple, Read Multiple Variable")
struct GATTServerReadMultipleTests {
    @Test("Read Multiple concatenates the values, cut to ATT_MTU − 1")
    func readMultiple() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0E 0300 1400") == hex("0F 5377696674424C45 01"))
        #expect(server.answer("0E 1400 2E00 0500") == hex("0F 01 64 0000"))
        #expect(server.answer("0E 1400 1A00") == hex("0F 01" + GATTServerReadTests.long(0 ..< 21)))
    }

    @Test("Read Multiple names the first invalid or unreadable handle")
    func readMultipleErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0E 0300 3000") == hex("01 0E 3000 01"))
        #expect(server.answer("0E 1400 1100 0000") == hex("01 0E 1100 02"))
        #expect(server.answer("0E 1400 2000") == hex("01 0E 2000 05"))
    }

    @Test("Read Multiple with fewer than two handles or an odd length is an Invalid PDU")
    func readMultipleInvalid() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0E 0300") == hex("01 0E 0000 04"))
        #expect(server.answer("0E 0300 1400 00") == hex("01 0E 0000 04"))
    }

    @Test("Read Multiple Variable answers each value after its length")
    func readMultipleVariable() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("20 1400 0500") == hex("21 0100 01 0200 0000"))
        #expect(server.answer("20 0300 2E00") == hex("21 0800 5377696674424C45 0100 64"))
    }

    @Test("Read Multiple Variable cuts the tuple list to ATT_MTU − 1, keeping the full length field")
    func readMultipleVariableCut() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("20 1A00 1400") == hex("21 6400" + GATTServerReadTests.long(0 ..< 20)))
        #expect(server.answer("20 1400 1A00") == hex("21 0100 01 6400" + GATTServerReadTests.long(0 ..< 17)))
    }

    @Test("Read Multiple Variable errors: Invalid Handle, Read Not Permitted, Invalid PDU")
    func readMultipleVariableErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("20 0000 0300") == hex("01 20 0000 01"))
        #expect(server.answer("20 0300 0800") == hex("01 20 0800 02"))
        #expect(server.answer("20 0300") == hex("01 20 0000 04"))
    }
}
