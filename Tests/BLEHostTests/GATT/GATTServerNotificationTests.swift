import BLEHost
import BLEWire
import Testing

@Suite("GATT server: notifications, indications, per-client state")
struct GATTServerNotificationTests {
    @Test("A notification carries the stored value cut to ATT_MTU − 3; an indication likewise")
    func handleValuePDUs() throws {
        var server = try GATTFixture.server()
        #expect(server.notification(of: 0x1A, for: 0x40) == hex("1B 1A00" + GATTServerReadTests.long(0 ..< 20)))
        #expect(server.indication(of: 0x11, value: [1, 2], for: 0x40) == hex("1D 1100 0102"))
        #expect(server.notification(of: 0x1E, for: 0x40) == nil)
        server.setMTU(50, for: 0x40)
        #expect(server.notification(of: 0x1A, for: 0x40) == hex("1B 1A00" + GATTServerReadTests.long(0 ..< 47)))
    }

    @Test("Notifications and indications go only to the clients that enabled them")
    func fanOut() throws {
        var server = try GATTFixture.server()
        _ = server.answer("12 1B00 0100", from: 0x40)
        _ = server.answer("12 1B00 0200", from: 0x41)
        _ = server.answer("04 0100 0100", from: 0x42)
        let notified = server.notifications(of: 0x1A, value: [9])
        #expect(notified.map(\.connection) == [0x40])
        #expect(notified.map(\.pdu) == [hex("1B 1A00 09")])
        let indicated = server.indications(of: 0x1A, value: [9])
        #expect(indicated.map(\.connection) == [0x41])
        #expect(indicated.map(\.pdu) == [hex("1D 1A00 09")])
    }

    @Test("A Handle Value Confirmation is reported, never answered")
    func confirmation() throws {
        var server = try GATTFixture.server()
        #expect(server.handle(hex("1E"), from: 0x40, security: .unencrypted) == [.indicationConfirmed(connection: 0x40)])
    }

    @Test("Multiple Handle Value Notification needs the client's feature bit and whole values within ATT_MTU")
    func multiple() throws {
        var server = try GATTFixture.server()
        let values: [(handle: ATT.Handle, value: [UInt8])] = [(0x14, [1]), (0x11, [6, 0x48])]
        #expect(server.multipleNotification(values, for: 0x40) == nil)
        _ = server.answer("12 0B00 04")
        #expect(server.multipleNotification(values, for: 0x40) == hex("23 1400 0100 01 1100 0200 0648"))
        #expect(server.multipleNotification([(0x14, [1])], for: 0x40) == nil)
        #expect(server.multipleNotification([(0x14, [1]), (0x1A, GATTFixture.longValue)], for: 0x40) == nil)
    }

    @Test("Service Changed is indicated to clients that enabled its indications")
    func serviceChanged() throws {
        var server = try GATTFixture.server()
        #expect(server.serviceChangedIndications(for: 1 ... 0xFFFF).isEmpty)
        #expect(server.answer("12 0900 0200") == hex("13"))
        let indications = server.serviceChangedIndications(for: 1 ... 0xFFFF)
        #expect(indications.map(\.connection) == [0x40])
        #expect(indications.map(\.pdu) == [hex("1D 0800 0100 FFFF")])
    }

    @Test("Two clients keep separate MTUs, configurations and prepare queues")
    func isolation() throws {
        var server = try GATTFixture.server()
        _ = server.handle(hex("02 0002"), from: 0x40, security: .unencrypted)
        #expect(server.mtu(for: 0x40) == 512 && server.mtu(for: 0x41) == 23)
        _ = server.answer("12 1200 0100", from: 0x40)
        #expect(server.subscriptions(of: 0x11).map(\.connection) == [0x40])
        #expect(server.answer("16 1A00 0000 AABB", from: 0x40) == hex("17 1A00 0000 AABB"))
        #expect(server.answer("18 01", from: 0x41) == hex("19"))
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
        #expect(server.answer("18 01", from: 0x40) == hex("19"))
        #expect(server.value(at: 0x1A) == [0xAA, 0xBB])
        #expect(server.answer("0A 1A00", from: 0x41) == hex("0B AABB"))
    }

    @Test("Disconnection drops a client's state and returns what a bond keeps, which can be restored")
    func disconnectAndRestore() throws {
        var server = try GATTFixture.server()
        _ = server.handle(hex("02 0002"), from: 0x40, security: .unencrypted)
        _ = server.answer("12 1B00 0300", from: 0x40)
        _ = server.answer("12 0B00 04", from: 0x40)
        _ = server.answer("16 1A00 0000 AABB", from: 0x40)
        let dropped = server.disconnected(0x40)
        let record = try #require(dropped)
        #expect(record.clientConfigurations == [0x1A: 0x0003])
        #expect(record.clientSupportedFeatures == 0x04)
        #expect(server.subscriptions(of: 0x1A).isEmpty)
        #expect(server.mtu(for: 0x40) == 23)
        #expect(server.answer("18 01", from: 0x40) == hex("19"))
        #expect(server.value(at: 0x1A) == GATTFixture.longValue)
        server.restore(record, for: 0x41)
        #expect(server.subscriptions(of: 0x1A) == [GATTSubscription(connection: 0x41, valueHandle: 0x1A, notify: true, indicate: true)])
        #expect(server.answer("0A 1B00", from: 0x41) == hex("0B 0300"))
        let unknown = server.disconnected(0x99)
        #expect(unknown == nil)
    }
}
