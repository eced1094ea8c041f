import BLE
import BLEWorld
import Foundation
import NotificationLight
import SimulatedTesting
import Testing

/// The pairing dialog of a scenario's phone (`pairing:` in `phone:`) in its story: the
/// notification light of Scenarios/call-notification-light.yaml pairs by Just Works
/// (it has no display or keyboard), and the phone's user taps Pair, taps Cancel or leaves
/// the dialog alone.
@Suite("A phone's story: the user's answers to the pairing dialog", .simulatedOnMainActor, .timeLimit(.minutes(5)))
struct PhoneStoryPairingTests {
    private static let lightOnly = PhoneStory(appPrograms: [:], accessoryPrograms: [
        "notification-light": { device, name, say in
            try await NotificationLight.start(on: device, name: name) { state in say("light: \(state)") }
        },
    ])

    /// The call scenario whose iPhone has `phone: {pairing: PAIRING}`.
    private static func callScenario(pairing: String) throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Scenarios/call-notification-light.yaml"), encoding: .utf8)
        let phone = "    position: [0, 0, 0.5]\n    host: external\n"
        #expect(text.contains(phone))
        return try ScenarioLoader.parse(yaml: text.replacingOccurrences(of: phone, with: phone + "    phone: {pairing: \(pairing)}\n"))
    }

    /// The phone's "Bluetooth" alerts, with their times in seconds.
    private static func dialog(_ story: [PhoneStoryLine]) -> [(Double, String)] {
        story.filter { $0.device == "iPhone" && $0.app == "Bluetooth" && $0.event == "alert" }
            .map { (Double($0.time) / 1e6, $0.detail) }
    }

    private static func lightShowsTheCall(_ story: [PhoneStoryLine]) -> Bool {
        story.contains { $0.device == "Notification Light" && $0.detail.hasPrefix("light: flashingRed") }
    }

    @Test("Just Works with Pair after 2 s: the request, the user's Pair 2 s later, paired by Just Works, and the light shows the call")
    func pair() async throws {
        let story = try await Self.lightOnly.play(try Self.callScenario(pairing: "{answer: pair, after: 2}"), until: 12_000_000, snoop: nil)
        let lines = Self.dialog(story)
        #expect(lines.count == 3, "\(lines)")
        guard lines.count == 3 else { return }
        #expect(lines[0].1.hasPrefix("Bluetooth Pairing Request: “") && lines[0].1.hasSuffix("” would like to pair with your iPhone."))
        #expect(lines[1].1 == "the user taps Pair")
        #expect(abs(lines[1].0 - lines[0].0 - 2) < 0.001, "the user answers 2 s after the dialog appears: \(lines)")
        #expect(lines[2].1.hasPrefix("paired with “") && lines[2].1.hasSuffix("(justWorks)"), "\(lines)")
        #expect(Self.lightShowsTheCall(story))
    }

    @Test("Just Works with Cancel: the pairing fails with Unspecified Reason from the phone, and the light never hears the call")
    func cancel() async throws {
        let story = try await Self.lightOnly.play(try Self.callScenario(pairing: "{answer: cancel}"), until: 12_000_000, snoop: nil)
        let lines = Self.dialog(story).map(\.1)
        #expect(lines.first?.hasPrefix("Bluetooth Pairing Request: ") == true, "\(lines)")
        #expect(lines.dropFirst().first == "the user taps Cancel", "\(lines)")
        #expect(lines.dropFirst(2).first?.contains("Unspecified Reason") == true, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("paired with") })
        #expect(!Self.lightShowsTheCall(story))
    }

    @Test("A dialog left alone: no answer, the pairing times out 30 s after its last PDU, and the light never hears the call")
    func ignore() async throws {
        let story = try await Self.lightOnly.play(try Self.callScenario(pairing: "{answer: ignore}"), until: 35_000_000, snoop: nil)
        let lines = Self.dialog(story)
        #expect(lines.count == 2, "\(lines)")
        guard lines.count == 2 else { return }
        #expect(lines[0].1.hasPrefix("Bluetooth Pairing Request: "))
        #expect(lines[1].1.hasSuffix("failed: pairing did not finish within 30 seconds"), "\(lines)")
        #expect((29.9 ... 30.1).contains(lines[1].0 - lines[0].0), "the SMP timer ran out (Vol 3, Part H, §3.4): \(lines)")
        #expect(!Self.lightShowsTheCall(story))
    }

    @Test("Without pairing: the phone shows no dialog, as before")
    func noDialogByDefault() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scenario = try ScenarioLoader.load(path: root.appendingPathComponent("Scenarios/call-notification-light.yaml").path)
        let story = try await Self.lightOnly.play(scenario, until: 12_000_000, snoop: nil)
        #expect(Self.dialog(story).isEmpty)
        #expect(Self.lightShowsTheCall(story))
    }
}
