import BLE
import BLEWorld
import Foundation
import OpenUserNotifications
import SimulatedTesting
import Testing

/// The notification prompt's answer of a scenario's app (`notifications:` in its entry).
@Suite("Notification authorization from a scenario", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct ScenarioNotificationTests {
    private let yaml = """
        name: notification prompt
        seed: 1
        duration: 10
        devices:
          - name: iPhone
            position: [0, 0, 1.3]
            host: external
            apps:
              - {name: Shop, notifications: deny}
              - {name: Bus}
        """

    @Test("A scenario's app whose user denies notifications is refused; one without the field is allowed")
    func scenarioAnswers() async throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml)
        #expect(scenario.devices[0].apps.map(\.notifications) == ["deny", "allow"])
        let device = try await BLEDevice.open(scenario: scenario, profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        for name in ["Shop", "Bus"] {
            try phone.install(scenarioApp: name) { _ in _ = UNUserNotificationCenter.current() }
            try phone.perform(.launch(name))
        }
        try await testClock.sleep(for: .milliseconds(100))
        #expect(try await UNUserNotificationCenter.center(for: "Shop", on: phone).requestAuthorization(options: [.alert]) == false)
        #expect(try await UNUserNotificationCenter.center(for: "Bus", on: phone).requestAuthorization(options: [.alert]))
        #expect(phone.notificationAuthorization(of: "Shop") == .denied)
        phone.close()
        await device.close()
    }

    @Test("An answer that is not allow, deny or undecided is refused with the place in the file")
    func badAnswer() {
        #expect(throws: (any Error).self) {
            try ScenarioLoader.parse(yaml: yaml.replacingOccurrences(of: "notifications: deny", with: "notifications: maybe"))
        }
    }
}
