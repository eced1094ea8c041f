import BLEHost
import BLEWire
import Testing

@Suite("GATT server: Write Request, Write Command, configuration descriptors")
struct GATTServerWriteTests {
    @Test("Write Request replaces a stored value, answers Write Response and reports the write")
    func writeRequest() throws {
        var server = try GATTFixture.server()
        let outputs = server.handle(hex("12 1A00 AABBCC"), from: 0x40, security: .unencrypted)
        #expect(outputs == [.send(connection: 0x40, pdu: hex("13")),
                            .valueWritten(connection: 0x40, handle: 0x1A, value: hex("AABBCC"))])
        #expect(server.value(at: 0x1A) == hex("AABBCC"))
        #expect(server.answer("0A 1A00") == hex("0B AABBCC"))
    }

    @Test("Write Request errors: Invalid Handle, Write Not Permitted, Invalid Attribute Value Length, Invalid PDU")
    func writeRequestErrors() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("12 0000 01") == hex("01 12 0000 01"))
        #expect(server.answer("12 3000 01") == hex("01 12 3000 01"))
        #expect(server.answer("12 1400 02") == hex("01 12 1400 03"))
        #expect(server.answer("12 0E00 0F18") == hex("01 12 0E00 03"))
        #expect(server.answer("12 1700 0102") == hex("01 12 1700 0D"))
        #expect(server.answer("12 1A00" + String(repeating: "00", count: 513)) == hex("01 12 1A00 0D"))
        #expect(server.answer("12 17") == hex("01 12 0000 04"))
        #expect(server.value(at: 0x14) == [0x01])
    }

    @Test("Write Command writes without an answer, and fails silently")
    func writeCommand() throws {
        var server = try GATTFixture.server()
        let written = server.handle(hex("52 1A00 0102"), from: 0x40, security: .unencrypted)
        #expect(written == [.valueWritten(connection: 0x40, handle: 0x1A, value: [1, 2])])
        #expect(server.value(at: 0x1A) == [1, 2])
        for failing in ["52 1400 02", "52 3000 01", "52 1700 0102", "52 12", "52"] {
            #expect(server.handle(hex(failing), from: 0x40, security: .unencrypted) == [])
        }
        #expect(server.value(at: 0x14) == [0x01])
    }

    @Test("A CCCD write enables notifications per client and reports the subscription")
    func clientConfiguration() throws {
        var server = try GATTFixture.server()
        let outputs = server.handle(hex("12 1200 0100"), from: 0x40, security: .unencrypted)
        #expect(outputs == [.send(connection: 0x40, pdu: hex("13")),
                            .valueWritten(connection: 0x40, handle: 0x12, value: [1, 0]),
                            .subscriptionChanged(connection: 0x40, valueHandle: 0x11, notify: true, indicate: false)])
        #expect(server.answer("0A 1200") == hex("0B 0100"))
        #expect(server.answer("0A 1200", from: 0x41) == hex("0B 0000"))
        #expect(server.subscriptions(of: 0x11) == [GATTSubscription(connection: 0x40, valueHandle: 0x11, notify: true, indicate: false)])
        _ = server.handle(hex("12 1B00 0300"), from: 0x40, security: .unencrypted)
        #expect(server.subscriptions(of: 0x1A) == [GATTSubscription(connection: 0x40, valueHandle: 0x1A, notify: true, indicate: true)])
        _ = server.handle(hex("12 1200 0000"), from: 0x40, security: .unencrypted)
        #expect(server.subscriptions(of: 0x11).isEmpty)
    }

    @Test("A CCCD bit for a property the characteristic lacks is Improperly Configured (0xFD)")
    func clientConfigurationImproper() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("12 1200 0200") == hex("01 12 1200 FD"))
        #expect(server.answer("12 1200 0300") == hex("01 12 1200 FD"))
        #expect(server.answer("12 0900 0100") == hex("01 12 0900 FD"))
        #expect(server.subscriptions(of: 0x11).isEmpty)
    }

    @Test("A CCCD write of other than 2 octets is an Invalid Attribute Value Length")
    func clientConfigurationLength() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("12 1200 01") == hex("01 12 1200 0D"))
        #expect(server.answer("12 1200 010000") == hex("01 12 1200 0D"))
    }

    @Test("Client Supported Features bits are kept per client and cannot be cleared")
    func clientSupportedFeatures() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("12 0B00 05") == hex("13"))
        #expect(server.answer("0A 0B00") == hex("0B 05"))
        #expect(server.answer("0A 0B00", from: 0x41) == hex("0B 00"))
        #expect(server.answer("12 0B00 01") == hex("01 12 0B00 13"))
        #expect(server.answer("12 0B00 FF") == hex("13"))
        #expect(server.answer("0A 0B00") == hex("0B 07"))
        #expect(server.answer("12 0B00") == hex("01 12 0B00 0D"))
    }

    @Test("The Server Characteristic Configuration is shared by all clients")
    func serverConfiguration() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("12 2900 0100") == hex("13"))
        #expect(server.answer("0A 2900", from: 0x41) == hex("0B 0100"))
        #expect(server.answer("12 2900 01") == hex("01 12 2900 0D"))
    }

    @Test("The app's stored-value changes are read back; dynamic values cannot be set")
    func setValue() throws {
        var server = try GATTFixture.server()
        let stored = server.setValue([0x42], for: 0x2E)
        let dynamic = server.setValue([1], for: 0x1E)
        let unknown = server.setValue([1], for: 0x30)
        #expect(stored && !dynamic && !unknown)
        #expect(server.answer("0A 2E00") == hex("0B 42"))
    }
}
