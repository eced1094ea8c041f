import BLE
import BLEProfiles
import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// Our ANCS consumer against a phone that answers badly: a hand-made ANCS service whose
/// first Data Source response names the wrong notification. The consumer reports a typed
/// error and reads the next response afresh.
@Suite("An ANCS consumer against a misbehaving phone", .simulated, .serialized, .timeLimit(.minutes(5)))
struct ANCSMalformedProviderTests {
    @Test("A mismatched Data Source response is a typed failure; the next notification's attributes arrive whole")
    func resynchronises() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (phone, accessory) = (world.devices[0], world.devices[1])
        let (commands, written) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .unbounded)
        var writes = commands.makeAsyncIterator()
        let published = try await phone.peripheral.add(Service(ANCS.service) {
            Characteristic(ANCS.notificationSource, properties: [.notify])
            Characteristic(ANCS.controlPoint, properties: [.write], permissions: [.writeable], onWrite: { request in
                written.yield(request.value)
                return .success(())
            })
            Characteristic(ANCS.dataSource, properties: [.notify])
        })
        let source = try #require(published.gatt.characteristic(ANCS.notificationSource))
        let data = try #require(published.gatt.characteristic(ANCS.dataSource))
        let consumer = try await ANCSConsumer.start(on: accessory, name: "Light")
        let link = try await within { try await phone.central.connect(to: world.addresses[1]) }
        var events = consumer.events.makeAsyncIterator()
        #expect(await events.next() == .sessionStarted(peer: world.addresses[0]))

        // Notification 1: the phone answers for UID 9 instead.
        let added1 = ANCS.NotificationSourceEvent(eventID: .added, flags: [], category: .email, categoryCount: 1, notificationUID: 1)
        try await phone.peripheral.notify(added1.encoded(), to: source, on: link.handle)
        #expect(await writes.next()?.prefix(5) == [0x00, 0x01, 0x00, 0x00, 0x00], "Get Notification Attributes for UID 1")
        let wrong = ANCS.DataSourceResponse.notificationAttributes(notificationUID: 9, attributes: [.init(.appIdentifier, "x")])
        try await phone.peripheral.notify(wrong.encoded(), to: data, on: link.handle)
        #expect(await events.next() == .failure(.malformedResponse(.mismatch(field: "NotificationUID"))))
        let first = await events.next()
        guard case let .notification(note1)? = first else {
            Issue.record("expected notification 1, got \(String(describing: first))")
            return
        }
        #expect(note1.uid == 1 && note1.title == nil, "reported without attributes")

        // Notification 2: a good response, even split across notifications, is read afresh.
        let added2 = ANCS.NotificationSourceEvent(eventID: .added, flags: [], category: .email, categoryCount: 2, notificationUID: 2)
        try await phone.peripheral.notify(added2.encoded(), to: source, on: link.handle)
        #expect(await writes.next()?.prefix(5) == [0x00, 0x02, 0x00, 0x00, 0x00], "Get Notification Attributes for UID 2")
        let good = ANCS.DataSourceResponse.notificationAttributes(notificationUID: 2, attributes: [
            .init(.appIdentifier, ""), .init(.title, "Fine again"), .init(.subtitle, ""), .init(.message, "resynchronised"),
            .init(.date, "20261128T090000"), .init(.positiveActionLabel, ""), .init(.negativeActionLabel, ""),
        ])
        for fragment in good.fragments(attMTU: 23) { try await phone.peripheral.notify(fragment, to: data, on: link.handle) }
        let second = await events.next()
        guard case let .notification(note2)? = second else {
            Issue.record("expected notification 2, got \(String(describing: second))")
            return
        }
        #expect(note2.uid == 2 && note2.title == "Fine again" && note2.message == "resynchronised")
        await consumer.stop()
        await world.close()
    }
}
