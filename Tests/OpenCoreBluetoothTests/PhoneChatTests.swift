import BLE
import BLEChat
import ChatApp
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// The chat example (Examples/Chat, ``ChatEngine``) as an app on two simulated iPhones, with
/// both Bluetooth background modes, one of them leaving the screen mid-chat, on each
/// ``PhoneProfile``, on virtual time.
@Suite("The chat app on two simulated iPhones", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneChatTests {
    /// One phone's chat app: its engine (one per launch) and what it received.
    @MainActor
    final class ChatRun {
        var engines: [ChatEngine] = []
        var messages: [String] = []
        var linksUp = 0
    }

    /// The engine's time on the test's clock: simulated seconds in this suite.
    static let time = ChatTime(now: { .microseconds(testClock.microseconds) },
                               sleep: { try? await testClock.sleep(for: $0) })

    private func install(_ name: String, partner: String, on phone: SimulatedPhone) throws -> ChatRun {
        let run = ChatRun()
        try phone.install(AppDescription(name: "Chat", modes: [.bluetoothCentral, .bluetoothPeripheral])) { _ in
            let engine = ChatEngine(name: name, partnerName: partner, time: Self.time)
            engine.onEvent = { event in
                switch event {
                case let .message(data): run.messages.append(String(decoding: data, as: UTF8.self))
                case .linkUp: run.linksUp += 1
                default: break
                }
            }
            engine.start()
            run.engines.append(engine)
        }
        return run
    }

    /// How many notifications the phone's chat app was called for.
    private func notifications(_ phone: SimulatedPhone) -> Int {
        phone.timeline.filter { entry in
            if case let .deliver(app: "Chat", events) = entry.output { events.contains { $0.detail.hasPrefix("didUpdateValueFor") } } else { false }
        }.count
    }

    @Test("Bob leaves the screen mid-chat: suspended, then kept awake by the heartbeats; Alice's messages arrive once, in order; on iOS 7 in 20-octet pieces", arguments: ["today", "iOS7"])
    func backgroundMidChat(profileName: String) async throws {
        let profile = try #require(PhoneProfile.all.first { $0.name == profileName })
        let world = try await DevicesWorld.make(devices: 2, attMTU: profile.host.attMTU)
        let alicePhone = SimulatedPhone(device: world.devices[0], profile: profile, seed: 1)
        let bobPhone = SimulatedPhone(device: world.devices[1], profile: profile, seed: 2)
        let alice = try install("Alice", partner: "Bob", on: alicePhone)
        let bob = try install("Bob", partner: "Alice", on: bobPhone)
        try alicePhone.perform(.launch("Chat"))
        try bobPhone.perform(.launch("Chat"))
        try await waitFor("both launched") { !alice.engines.isEmpty && !bob.engines.isEmpty }
        let sender = try #require(alice.engines.first)

        try sender.send(Data("Hello Bob, this is the first message of the chat".utf8))
        try await waitFor("the first message") { bob.messages.count == 1 }
        try bobPhone.perform(.background("Chat"))
        try await testClock.sleep(for: .seconds(10))
        // Suspended after the grace period, then woken by the next heartbeat notification:
        // a chat that beats every second keeps its app awake in the background.
        let moves = bobPhone.timeline.compactMap { entry -> String? in
            guard case let .stateChanged("Chat", from, to) = entry.output else { return nil }
            return "\(from) → \(to)"
        }
        #expect(moves == ["notRunning → foreground", "foreground → background", "background → suspended", "suspended → background"], "\(moves)")
        #expect(bobPhone.state(of: "Chat") == .background)
        let before = notifications(bobPhone)

        let later = (2 ... 4).map { "Message \($0): sent while Bob's chat is in his pocket, suspended" }
        for text in later { try sender.send(Data(text.utf8)) }
        try await waitFor("the messages sent while Bob was away") { bob.messages.count == 4 }
        #expect(bob.messages == ["Hello Bob, this is the first message of the chat"] + later)
        let pieces = notifications(bobPhone) - before
        // Each message is longer than 20 octets: on ATT_MTU 23 it takes several notifications.
        if profile.host.attMTU == 23 {
            #expect(pieces >= 3 * 3, "\(pieces) notifications for three messages")
        } else {
            #expect(pieces >= 3 && pieces < 9, "\(pieces) notifications for three messages")
        }
        try await testClock.sleep(for: .seconds(5))
        #expect(bob.messages.count == 4, "nothing delivered twice")
        #expect(alice.linksUp == 1 && bob.linksUp == 1, "one link throughout")
        for run in [alice, bob] { run.engines.first?.stop() }
        alicePhone.close()
        bobPhone.close()
        await world.close()
    }
}
