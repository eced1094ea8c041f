import BLE
import BLEProfiles
import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// A phone (our ANCS provider) and an accessory (our ANCS consumer) in one world.
@Suite("ANCS between a phone and an accessory", .simulated, .serialized, .timeLimit(.minutes(5)))
struct ANCSTests {
    /// Every event of a consumer, kept as it comes; waiters are woken when what they wait
    /// for has happened.
    actor EventLog {
        private(set) var events: [ANCSConsumerEvent] = []
        private var waiters: [(check: @Sendable ([ANCSConsumerEvent]) -> Bool, continuation: CheckedContinuation<[ANCSConsumerEvent], Never>)] = []

        init(_ stream: AsyncStream<ANCSConsumerEvent>) {
            Task { for await event in stream { await self.append(event) } }
        }

        private func append(_ event: ANCSConsumerEvent) {
            events.append(event)
            var waiting: [(check: @Sendable ([ANCSConsumerEvent]) -> Bool, continuation: CheckedContinuation<[ANCSConsumerEvent], Never>)] = []
            for waiter in waiters {
                if waiter.check(events) { waiter.continuation.resume(returning: events) } else { waiting.append(waiter) }
            }
            waiters = waiting
        }

        /// The events so far once `check` holds for them.
        func wait(until check: @escaping @Sendable ([ANCSConsumerEvent]) -> Bool) async -> [ANCSConsumerEvent] {
            // The check runs inside the continuation's body, where no event can slip in
            // between it and the wait.
            return await withCheckedContinuation { continuation in
                if check(events) { continuation.resume(returning: events) } else { waiters.append((check, continuation)) }
            }
        }
    }

    static func notifications(_ events: [ANCSConsumerEvent]) -> [ANCSNotification] {
        events.compactMap { if case let .notification(note) = $0 { note } else { nil } }
    }

    @Test("200 notifications added, modified and removed in a burst arrive in order with their attributes; a reconnection replays those left as PreExisting; an action reaches the phone")
    func burstReconnectionAndAction() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (phone, accessory) = (world.devices[0], world.devices[1])
        let center = PhoneNotificationCenter()
        center.setAppName("Messages", for: "com.apple.MobileSMS")
        center.setAppName("Phone", for: "com.apple.mobilephone")
        let early = center.add(PhoneNotification(category: .social, appIdentifier: "com.apple.MobileSMS", title: "Before",
                                                 message: "posted before the accessory came"))
        let provider = try await ANCSProvider.start(on: phone, center: center)
        let consumer = try await ANCSConsumer.start(on: accessory, name: "Light")
        let log = EventLog(consumer.events)
        _ = try await within { try await provider.connectToAccessory() }
        let start = try await within { await log.wait { !Self.notifications($0).isEmpty } }
        #expect(start.first == .sessionStarted(peer: world.addresses[0]))
        let replayed = try #require(Self.notifications(start).first)
        #expect(replayed.uid == early && replayed.flags.contains(.preExisting) && replayed.title == "Before")
        #expect(replayed.appName == "Messages")
        // The phone refused the unencrypted subscription, so the accessory paired.
        let accessoryLink = try #require(accessory.connections.first)
        #expect(await accessoryLink.securityLevel != .none)
        #expect(accessoryLink.isBonded)

        // The burst: 120 added, 40 of them modified, 40 removed.
        var uids: [UInt32] = []
        for index in 0 ..< 120 {
            uids.append(center.add(PhoneNotification(category: .email, appIdentifier: "com.apple.MobileSMS", title: "Mail \(index)",
                                                     message: String(repeating: "x", count: index * 7))))
        }
        for index in 0 ..< 40 {
            center.modify(uids[index], to: PhoneNotification(category: .email, appIdentifier: "com.apple.MobileSMS",
                                                             title: "Mail \(index) (edited)"))
        }
        for index in 80 ..< 120 { center.remove(uids[index]) }
        let burst = try await within { await log.wait { Self.notifications($0).count >= 201 } }
        let notes = Array(Self.notifications(burst).dropFirst())
        #expect(notes.map(\.event) == Array(repeating: .added, count: 120) + Array(repeating: .modified, count: 40)
            + Array(repeating: .removed, count: 40))
        #expect(notes.map(\.uid) == uids + uids.prefix(40) + uids.suffix(40))
        // Attributes are fetched when the consumer gets to an event, so they are the current
        // ones: edited for the first 40, none for those removed by then (still reported).
        for (index, note) in notes.prefix(120).enumerated() {
            switch index {
            case 0 ..< 40: #expect(note.title == "Mail \(index) (edited)" && note.message == "")
            case 40 ..< 80: #expect(note.title == "Mail \(index)" && note.message == String(repeating: "x", count: min(index * 7, 512)))
            default: #expect(note.title == nil && note.appIdentifier == nil)
            }
            #expect(note.category == .email)
        }
        #expect(notes[120].title == "Mail 0 (edited)" && notes[120].appName == "Messages")
        #expect(notes.last?.categoryCount == 80)
        #expect(!burst.contains { if case .failure = $0 { true } else { false } }, "\(burst.filter { if case .failure = $0 { true } else { false } })")

        // A call with actions: declining it reaches the phone.
        let call = center.add(PhoneNotification(category: .incomingCall, appIdentifier: "com.apple.mobilephone", title: "Riker",
                                                isImportant: true, positiveActionLabel: "Answer", negativeActionLabel: "Decline"))
        let ringing = try await within { await log.wait { Self.notifications($0).contains { $0.uid == call } } }
        let note = try #require(Self.notifications(ringing).last)
        #expect(note.negativeActionLabel == "Decline" && note.appName == "Phone" && note.flags.contains(.important))
        try await consumer.perform(.negative, on: call)
        var actions = center.actions.makeAsyncIterator()
        let action = await actions.next()
        #expect(action?.notificationUID == call && action?.action == .negative)
        await #expect(throws: ANCSConsumerError.refused(.invalidParameter)) { try await consumer.perform(.positive, on: 9999) }
        await #expect(throws: ANCSConsumerError.refused(.actionFailed)) { try await consumer.perform(.positive, on: early) }

        // The link drops; the phone connects again: a new session replays what is left, once each.
        let link = try #require(phone.connections.first)
        try await link.disconnect()
        _ = try await within { await log.wait { $0.contains(.sessionEnded) } }
        center.remove(call)
        _ = try await within { try await provider.connectToAccessory() }
        let present = center.notifications.map(\.uid)
        let before = await log.events.count
        let again = try await within {
            await log.wait { Self.notifications(Array($0.dropFirst(before))).count >= present.count }
        }
        let replay = Self.notifications(Array(again.dropFirst(before)))
        #expect(replay.map(\.uid) == present)
        #expect(replay.allSatisfy { $0.flags.contains(.preExisting) && $0.event == .added })
        await consumer.stop()
        provider.stop()
        await world.close()
    }
}
