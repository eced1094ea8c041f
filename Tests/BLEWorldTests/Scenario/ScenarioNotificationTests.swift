import BLEWorld
import Testing

/// The `notification:` action of a scenario: what a phone's Notification Center is scripted
/// to do, and the mistakes the loader refuses with their place.
@Suite("Scenario notification actions")
struct ScenarioNotificationTests {
    private func load(_ actions: String) throws -> Scenario {
        try ScenarioLoader.parse(yaml: """
            name: notes
            devices:
              - {name: iPhone, host: external}
              - {name: Light, host: external, program: notification-light}
            actions:
            \(actions)
            """, file: "notes.yaml")
    }

    private func refusal(_ actions: String) -> String {
        do {
            _ = try load(actions)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test("An add carries every field; a modify and a removal name the notification")
    func decodes() throws {
        let scenario = try load("""
              - {at: 2, notification: {device: iPhone, do: add, id: call, category: incomingCall, app: com.apple.mobilephone, title: Riker, subtitle: Mobile, message: Calling, positiveAction: Answer, negativeAction: Decline}}
              - {at: 3, notification: {device: iPhone, do: modify, id: call, category: missedCall, app: com.apple.mobilephone, title: Riker}}
              - {at: 4, notification: {device: iPhone, do: remove, id: call}}
            """)
        let notes = scenario.actions.compactMap { timed -> ScenarioNotification? in
            if case let .notification("iPhone", note) = timed.action { note } else { nil }
        }
        #expect(notes == [
            ScenarioNotification(change: .add, id: "call", category: "incomingCall", app: "com.apple.mobilephone", title: "Riker",
                                 subtitle: "Mobile", message: "Calling", positiveAction: "Answer", negativeAction: "Decline"),
            ScenarioNotification(change: .modify, id: "call", category: "missedCall", app: "com.apple.mobilephone", title: "Riker"),
            ScenarioNotification(change: .remove, id: "call"),
        ])
        #expect(scenario.device(named: "Light")?.program == "notification-light")
    }

    @Test("Unknown changes, missing fields, removals with content, ids never posted or posted twice are refused")
    func refusals() {
        #expect(refusal("  - {at: 1, notification: {device: iPhone, do: ring, id: a}}").contains("\"ring\" is not a notification change"))
        #expect(refusal("  - {at: 1, notification: {device: iPhone, do: add, id: a, app: x}}").contains("category"))
        #expect(refusal("  - {at: 1, notification: {device: iPhone, do: remove, id: a, title: T}}")
            .contains("a removal names only the notification"))
        #expect(refusal("  - {at: 1, notification: {device: iPhone, do: modify, id: a, category: social, app: x}}")
            .contains("no notification \"a\" is posted at 1.0 s to modify"))
        let twice = """
              - {at: 1, notification: {device: iPhone, do: add, id: a, category: social, app: x}}
              - {at: 2, notification: {device: iPhone, do: add, id: a, category: social, app: x}}
            """
        #expect(refusal(twice).contains("actions[1]") && refusal(twice).contains("\"a\" is posted already"))
        // Time order, not file order, decides what is posted when.
        let reordered = """
              - {at: 5, notification: {device: iPhone, do: remove, id: a}}
              - {at: 1, notification: {device: iPhone, do: add, id: a, category: social, app: x}}
            """
        #expect(refusal(reordered) == "accepted")
        #expect(refusal("  - {at: 1, notification: {device: Nobody, do: remove, id: a}}").contains("no device is called \"Nobody\""))
    }

    @Test("An accessory program needs a host: external device without apps, and not the phone's place")
    func accessoryPrograms() {
        func devices(_ text: String) -> String {
            do {
                _ = try ScenarioLoader.parse(yaml: "name: p\ndevices:\n" + text, file: "p.yaml")
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(devices("  - {name: Light, program: notification-light}\n").contains("an accessory program runs on a host: external device"))
        #expect(devices("  - {name: Light, host: external, program: notification-light}\n")
            .contains("the first host: external device is the run's phone"))
        #expect(devices("  - {name: iPhone, host: external}\n  - {name: Light, host: external, program: notification-light}\n") == "accepted")
    }
}
