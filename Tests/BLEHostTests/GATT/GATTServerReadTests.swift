import BLEHost
import BLEWire
import Testing

@Suite("GATT server: Read, Read Blob, Read By Type")
struct GATTServerReadTests {
    /// The long value's octets `range`, as hex.
    static func long(_ range: Range<Int>) -> String {
        GATTFixture.longValue[range].map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test("Read answers the value; a long value is cut to ATT_MTU − 1")
    func read() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0A 0300") == hex("0B 5377696674424C45"))
        #expect(server.answer("0A 0500") == hex("0B 0000"))
        #expect(server.answer("0A 1A00") == hex("0B" + Self.long(0 ..< 22)))
        #expect(server.answer("0A 0E00") == hex("0B 0D18"))
        #expect(server.answer("0A 1700") == hex("01 0A 1700 02"))
    }

    @Test("Read errors: Invalid Handle for 0 and past the end, Read Not Permitted, Invalid PDU")
    func readErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0A 0000") == hex("01 0A 0000 01"))
        #expect(server.answer("0A 3000") == hex("01 0A 3000 01"))
        #expect(server.answer("0A 1100") == hex("01 0A 1100 02"))
        #expect(server.answer("0A 0800") == hex("01 0A 0800 02"))
        #expect(server.answer("0A 03") == hex("01 0A 0000 04"))
        #expect(server.answer("0A 0300 00") == hex("01 0A 0000 04"))
    }

    @Test("Read Blob answers the value from the offset, an empty part at the end")
    func readBlob() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0C 1A00 1600") == hex("0D" + Self.long(22 ..< 44)))
        #expect(server.answer("0C 1A00 5800") == hex("0D" + Self.long(88 ..< 100)))
        #expect(server.answer("0C 1A00 6400") == hex("0D"))
        #expect(server.answer("0C 1900 0000") == hex("0D BE 1A00" + GATTFixture.u1Octets))
    }

    @Test("Read Blob past the end returns Invalid Offset")
    func readBlobInvalidOffset() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0C 1A00 6500") == hex("01 0C 1A00 07"))
        #expect(server.answer("0C 1400 0200") == hex("01 0C 1400 07"))
        #expect(server.answer("0C 1400 0100") == hex("0D"))
    }

    @Test("Read Blob at a non-zero offset of a short fixed-length GATT attribute returns Attribute Not Long")
    func readBlobNotLong() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0C 1900 0100") == hex("01 0C 1900 0B"))
        #expect(server.answer("0C 1B00 0100") == hex("01 0C 1B00 0B"))
        #expect(server.answer("0C 0100 0300") == hex("01 0C 0100 0B"))
    }

    @Test("Read Blob errors: Invalid Handle, Read Not Permitted, Invalid PDU")
    func readBlobErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0C 0000 0000") == hex("01 0C 0000 01"))
        #expect(server.answer("0C 1100 0000") == hex("01 0C 1100 02"))
        #expect(server.answer("0C 1A00 00") == hex("01 0C 0000 04"))
    }

    @Test("Read By Type of «Characteristic» lists declarations of one length, as many as fit")
    func readByTypeCharacteristics() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("08 0100 FFFF 0328") == hex("09 07 0200 02 0300 002A 0400 02 0500 012A 0700 20 0800 052A"))
        #expect(server.answer("08 1800 2B00 0328") == hex("09 15 1900 BE 1A00" + GATTFixture.u1Octets))
        #expect(server.answer("08 1C00 2B00 0328") == hex("09 15 1D00 02 1E00 F2DEBC9A785634127856341278563412"))
        #expect(server.answer("08 1F00 2B00 0328") == hex("09 07 1F00 02 2000 6E2A 2100 08 2200 6F2A 2300 02 2400 702A"))
    }

    @Test("Read By Type reads a characteristic by its 16- or 128-bit UUID")
    func readByTypeUUID() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("08 0100 FFFF 382A") == hex("09 03 1400 01"))
        #expect(server.answer("08 0100 FFFF 192A") == hex("09 03 2E00 64"))
        // A long value is cut to ATT_MTU − 4 and sent alone.
        #expect(server.answer("08 0100 FFFF" + GATTFixture.u1Octets) == hex("09 15 1A00" + Self.long(0 ..< 19)))
    }

    @Test("Read By Type of CCCDs answers this client's values")
    func readByTypeConfigurations() throws {
        var server = try GATTFixture.server()
        _ = server.answer("12 1200 0100")
        #expect(server.answer("08 0100 FFFF 0229") == hex("09 04 0900 0000 1200 0100 1B00 0000 2F00 0000"))
        #expect(server.answer("08 0100 FFFF 0229", from: 0x0041) == hex("09 04 0900 0000 1200 0000 1B00 0000 2F00 0000"))
    }

    @Test("Read By Type errors: Read Not Permitted on the first match, Invalid Handle, Attribute Not Found, Invalid PDU, Insufficient Authentication")
    func readByTypeErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("08 0100 FFFF 372A") == hex("01 08 1100 02"))
        #expect(server.answer("08 0000 FFFF 0328") == hex("01 08 0000 01"))
        #expect(server.answer("08 0300 0200 0328") == hex("01 08 0300 01"))
        #expect(server.answer("08 0100 FFFF 9999") == hex("01 08 0100 0A"))
        #expect(server.answer("08 0100 FFFF 11223344") == hex("01 08 0000 04"))
        #expect(server.answer("08 1F00 2400 6E2A") == hex("01 08 2000 05"))
    }

    @Test("Read By Type: an error on a later match ends the list before it")
    func readByTypeLaterError() throws {
        let twice = GATTServiceDefinition(uuid: 0x180F, characteristics: [
            GATTCharacteristicDefinition(uuid: 0x2A19, properties: .read, value: .stored([0x64])),
            GATTCharacteristicDefinition(uuid: 0x2A19, properties: .read, permissions: [], value: .stored([0x32])),
        ])
        var server = GATTServer(database: try GATTDatabase(services: [twice],
                                                           configuration: GATTDatabase.Configuration(includesStandardServices: false)))
        #expect(server.answer("08 0100 FFFF 192A") == hex("09 03 0300 64"))
        #expect(server.answer("08 0400 FFFF 192A") == hex("01 08 0500 02"))
    }
}
