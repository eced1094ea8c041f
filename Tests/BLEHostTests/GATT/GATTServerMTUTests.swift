import BLEHost
import BLEWire
import Testing

@Suite("GATT server: Exchange MTU")
struct GATTServerMTUTests {
    @Test("Exchange MTU answers the server's receive MTU and sets the smaller one")
    func exchange() throws {
        var server = try GATTFixture.server()
        let outputs = server.handle(hex("02 0002"), from: 0x40, security: .unencrypted)
        #expect(outputs == [.send(connection: 0x40, pdu: hex("03 0502")), .mtuChanged(connection: 0x40, mtu: 512)])
        #expect(server.mtu(for: 0x40) == 512)
        #expect(server.answer("0A 1A00") == hex("0B" + GATTServerReadTests.long(0 ..< 100)))
    }

    @Test("A configured receive MTU caps ATT_MTU")
    func configured() throws {
        var server = try GATTFixture.server(GATTServer.Configuration(receiveMTU: 100))
        let outputs = server.handle(hex("02 0502"), from: 0x40, security: .unencrypted)
        #expect(outputs == [.send(connection: 0x40, pdu: hex("03 6400")), .mtuChanged(connection: 0x40, mtu: 100)])
    }

    @Test("A client MTU below 23 leaves ATT_MTU at 23")
    func belowMinimum() throws {
        var server = try GATTFixture.server()
        let outputs = server.handle(hex("02 1000"), from: 0x40, security: .unencrypted)
        #expect(outputs == [.send(connection: 0x40, pdu: hex("03 0502"))])
        #expect(server.mtu(for: 0x40) == 23)
    }

    @Test("Only the first Exchange MTU of a connection changes ATT_MTU")
    func once() throws {
        var server = try GATTFixture.server()
        _ = server.handle(hex("02 4000"), from: 0x40, security: .unencrypted)
        let again = server.handle(hex("02 0002"), from: 0x40, security: .unencrypted)
        #expect(again == [.send(connection: 0x40, pdu: hex("03 0502"))])
        #expect(server.mtu(for: 0x40) == 64)
    }

    @Test("ATT_MTU set by the local client's exchange applies to the server's answers")
    func setByClient() throws {
        var server = try GATTFixture.server()
        server.setMTU(30, for: 0x40)
        #expect(server.answer("0A 1A00") == hex("0B" + GATTServerReadTests.long(0 ..< 29)))
        #expect(server.answer("02 0002") == hex("03 0502"))
        #expect(server.mtu(for: 0x40) == 30)
    }

    @Test("A malformed Exchange MTU Request is an Invalid PDU")
    func malformed() throws {
        var server = try GATTFixture.server()
        #expect(server.answer("02 00") == hex("01 02 0000 04"))
        #expect(server.answer("02 0001 00") == hex("01 02 0000 04"))
    }
}
