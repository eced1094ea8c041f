import BLE
import BLEWorld
import Foundation
import NotificationLight
import SimulatedTesting
import Testing

/// A scenario's phone story (`ble sim run` of Scenarios/call-notification-light.yaml): the
/// phone serves ANCS to Examples/NotificationLight, and its notifications change the light.
@Suite("A phone's story: the scenario's programs on one simulation", .simulatedOnMainActor, .timeLimit(.minutes(5)))
struct PhoneStoryTests {
    private static let lightOnly = PhoneStory(appPrograms: [:], accessoryPrograms: [
        "notification-light": { device, name, say in
            try await NotificationLight.start(on: device, name: name) { state in say("light: \(state)") }
        },
    ])

    private static func callScenario() throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try ScenarioLoader.load(path: root.appendingPathComponent("Scenarios/call-notification-light.yaml").path)
    }

    @Test("A scenario with an accessory program needs the phone's host; the neighbourhood does not")
    func needed() throws {
        #expect(PhoneStory.isNeeded(for: try Self.callScenario()))
        #expect(!PhoneStory.isNeeded(for: try Scenario.builtIn(named: "neighbourhood")))
    }

    @Test("A program the player does not know is refused by name, with the ones it knows")
    func unknownProgram() throws {
        let player = PhoneStory(appPrograms: [:], accessoryPrograms: [:])
        #expect(throws: PhoneStoryError("\"Notification Light\" runs \"notification-light\", which is no accessory program "
                                        + "ble sim run knows; use one of .")) {
            try player.check(try Self.callScenario())
        }
        try Self.lightOnly.check(try Self.callScenario())
    }

    @Test("The light flashes red for the call, turns amber for the missed call and blue for the message, in the phone's story")
    func callThenMissedThenMessage() async throws {
        let story = try await Self.lightOnly.play(try Self.callScenario(), until: 35_000_000, snoop: nil)
        #expect(story.map(\.time) == story.map(\.time).sorted(), "the story is in time order")
        #expect(story.contains { $0.device == "iPhone" && $0.detail.hasPrefix("connected to the accessory") })
        let colours = story.filter { $0.device == "Notification Light" && $0.detail.hasPrefix("light: ") }.map(\.detail)
        let changes = colours.enumerated().filter { $0.offset == 0 || colours[$0.offset - 1] != $0.element }.map(\.element)
        #expect(changes == ["light: off", "light: flashingRed (incomingCall 1)", "light: off", "light: amber (missedCall 1)",
                            "light: amber (missedCall 1, social 1)", "light: blue (social 1)"], "\(changes)")
        let posted = story.filter { $0.event == "notification" }.map(\.detail)
        #expect(posted.first == "added \"call\" (incomingCall): Riker", "\(posted)")
    }
}
