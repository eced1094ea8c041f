import BLEHost
import BLEWire
import Testing

@Suite("GATT server: permissions")
struct GATTServerPermissionTests {
    static let justWorks = LinkSecurity(level: .unauthenticated, keySize: 16, hasKey: true)
    static let authenticated = LinkSecurity(level: .authenticated, keySize: 16, hasKey: true)

    @Test("Encryption required on an unencrypted link without a key returns Insufficient Authentication (0x05)")
    func noKey() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0A 2000") == hex("01 0A 2000 05"))
        #expect(server.answer("0C 2000 0000") == hex("01 0C 2000 05"))
    }

    @Test("Encryption required on an unencrypted link with a key returns Insufficient Encryption (0x0F)")
    func keyNotUsed() throws {
        var server = try GATTFixture.server()
        let bonded = LinkSecurity(level: .none, keySize: 0, hasKey: true)
        #expect(server.answer("0A 2000", security: bonded) == hex("01 0A 2000 0F"))
        #expect(server.answer("0E 1400 2000", security: bonded) == hex("01 0E 2000 0F"))
    }

    @Test("An encryption key shorter than the attribute's minimum returns Encryption Key Size Too Short (0x0C)")
    func shortKey() throws {
        var server = try GATTFixture.server()
        let short = LinkSecurity(level: .unauthenticated, keySize: 7, hasKey: true)
        #expect(server.answer("0A 2000", security: short) == hex("01 0A 2000 0C"))
        #expect(server.answer("0A 2000", security: Self.justWorks) == hex("0B 100E"))
    }

    @Test("A read waiting for the app is checked again with the link's security when the app answers (found by the gatt-server fuzz target)")
    func securityChangedWhileTheAppAnswers() throws {
        var server = try GATTFixture.server()
        let short = LinkSecurity(level: .unauthenticated, keySize: 7, hasKey: true)
        // Read Multiple of a dynamic value (0x1E) and the encrypted-only one (0x20), allowed as it arrives.
        let asked = try #require(server.handle(hex("0E 1E00 2000"), from: 0x40, security: Self.justWorks).appReads.first)
        #expect(server.respond(to: asked.id, with: .success([0xAA]), security: short) == [.send(connection: 0x40, pdu: hex("01 0E 2000 0C"))])
        let again = try #require(server.handle(hex("0E 1E00 2000"), from: 0x40, security: Self.justWorks).appReads.first)
        #expect(server.respond(to: again.id, with: .success([0xAA]), security: .unencrypted) == [.send(connection: 0x40, pdu: hex("01 0E 2000 05"))])
        let kept = try #require(server.handle(hex("0E 1E00 2000"), from: 0x40, security: Self.justWorks).appReads.first)
        #expect(server.connection(awaiting: kept.id) == 0x40)
        #expect(server.respond(to: kept.id, with: .success([0xAA]), security: Self.justWorks) == [.send(connection: 0x40, pdu: hex("0F AA 100E"))])
        #expect(server.connection(awaiting: kept.id) == nil)
    }

    @Test("Authentication required over an unauthenticated key returns Insufficient Authentication (0x05)")
    func unauthenticatedKey() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("12 2200 01") == hex("01 12 2200 05"))
        #expect(server.answer("12 2200 01", security: Self.justWorks) == hex("01 12 2200 05"))
        #expect(server.answer("12 2200 01", security: Self.authenticated) == hex("13"))
        #expect(server.value(at: 0x22) == [0x01])
    }

    @Test("Authorization the app has not granted returns Insufficient Authorization (0x08)")
    func authorization() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("0A 2400") == hex("01 0A 2400 08"))
        server.setAuthorization(true, for: 0x40)
        #expect(server.answer("0A 2400") == hex("0B 11"))
        #expect(server.answer("0A 2400", from: 0x41) == hex("01 0A 2400 08"))
        server.setAuthorization(false, for: 0x40)
        #expect(server.answer("0A 2400") == hex("01 0A 2400 08"))
    }

    @Test("Access is checked before security: Read Not Permitted (0x02) and Write Not Permitted (0x03) come first")
    func accessFirst() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("12 2000 0000") == hex("01 12 2000 03"))
        #expect(server.answer("0A 2200") == hex("01 0A 2200 02"))
        #expect(server.answer("0A 0800", security: Self.authenticated) == hex("01 0A 0800 02"))
    }

    @Test("Read By Type and Read Multiple Variable report the security error of the attribute")
    func multiAttributeRequests() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("08 0100 FFFF 6E2A") == hex("01 08 2000 05"))
        #expect(server.answer("20 1400 2000") == hex("01 20 2000 05"))
        #expect(server.answer("08 0100 FFFF 6E2A", security: Self.justWorks) == hex("09 04 2000 100E"))
    }

    @Test("Find By Type Value skips values the client may not read")
    func findByTypeValueSkips() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("06 0100 FFFF 6E2A 100E") == hex("01 06 0100 0A"))
        #expect(server.answer("06 0100 FFFF 6E2A 100E", security: Self.justWorks) == hex("07 2000 2000"))
    }
}
