import BLEHost
import BLEWire
import Testing

@Suite("GATT server: Find Information, Find By Type Value, Read By Group Type")
struct GATTServerDiscoveryTests {
    @Test("Find Information lists handles and 16-bit types, as many as fit ATT_MTU 23")
    func findInformation() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("04 0100 FFFF") == hex("05 01 0100 0028 0200 0328 0300 002A 0400 0328 0500 012A"))
        #expect(server.answer("04 1300 1500") == hex("05 01 1300 0328 1400 382A 1500 0129"))
    }

    @Test("Find Information stops where the UUID width changes and sends 128-bit types in format 2")
    func findInformationWidths() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("04 1800 FFFF") == hex("05 01 1800 0028 1900 0328"))
        #expect(server.answer("04 1A00 1B00") == hex("05 02 1A00" + GATTFixture.u1Octets))
    }

    @Test("Find Information with start 0 or start above end answers Invalid Handle; past the end, Attribute Not Found")
    func findInformationErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("04 0000 FFFF") == hex("01 04 0000 01"))
        #expect(server.answer("04 0500 0400") == hex("01 04 0500 01"))
        #expect(server.answer("04 3000 FFFF") == hex("01 04 3000 0A"))
        #expect(server.answer("04 0100") == hex("01 04 0000 04"))
    }

    @Test("Find By Type Value finds a primary service by UUID with its group end")
    func findByTypeValue() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("06 0100 FFFF 0028 0D18") == hex("07 0E00 1700"))
        #expect(server.answer("06 0100 FFFF 0028" + GATTFixture.u0Octets) == hex("07 1800 2B00"))
        #expect(server.answer("06 0100 FFFF 0128 0F18") == hex("07 2C00 2F00"))
    }

    @Test("Find By Type Value of a non-grouping type answers the found handle as its own end")
    func findByTypeValueNonGrouping() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("06 0100 FFFF 382A 01") == hex("07 1400 1400"))
    }

    @Test("Find By Type Value errors: Invalid Handle, Attribute Not Found, Invalid PDU")
    func findByTypeValueErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("06 0000 FFFF 0028 0D18") == hex("01 06 0000 01"))
        #expect(server.answer("06 0200 0100 0028 0D18") == hex("01 06 0200 01"))
        // A secondary service is not a primary service; a service outside the range is not found.
        #expect(server.answer("06 0100 FFFF 0028 0F18") == hex("01 06 0100 0A"))
        #expect(server.answer("06 0F00 FFFF 0028 0D18") == hex("01 06 0F00 0A"))
        #expect(server.answer("06 0100 FFFF") == hex("01 06 0000 04"))
    }

    @Test("Read By Group Type lists primary services with group ends, same-length values only")
    func readByGroupType() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("10 0100 FFFF 0028") == hex("11 06 0100 0500 0018 0600 0D00 0118 0E00 1700 0D18"))
        #expect(server.answer("10 1800 FFFF 0028") == hex("11 14 1800 2B00" + GATTFixture.u0Octets))
        #expect(server.answer("10 2C00 FFFF 0028") == hex("01 10 2C00 0A"))
        #expect(server.answer("10 0100 FFFF 0128") == hex("11 06 2C00 2F00 0F18"))
    }

    @Test("Read By Group Type with a non-grouping type answers Unsupported Group Type")
    func readByGroupTypeUnsupported() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("10 0100 FFFF 0328") == hex("01 10 0100 10"))
        #expect(server.answer("10 0100 FFFF" + GATTFixture.u0Octets) == hex("01 10 0100 10"))
    }

    @Test("Read By Group Type errors: Invalid Handle and Invalid PDU")
    func readByGroupTypeErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("10 0000 FFFF 0028") == hex("01 10 0000 01"))
        #expect(server.answer("10 0900 0800 0028") == hex("01 10 0900 01"))
        #expect(server.answer("10 0100 FFFF 00") == hex("01 10 0000 04"))
    }

    @Test("A 128-bit form of «Primary Service» is the same group type")
    func readByGroupTypeLongForm() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("10 0100 FFFF FB349B5F80000080001000000028 0000") == hex("11 06 0100 0500 0018 0600 0D00 0118 0E00 1700 0D18"))
    }
}
