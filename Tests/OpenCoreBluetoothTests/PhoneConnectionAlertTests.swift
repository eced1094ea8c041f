import BLE
import SimulatedTesting
import Testing

/// The system's connection alerts on a simulated iPhone when several apps ask for the same
/// peripheral's (research §9, rule 5): the phone's own API, as the Core Bluetooth layer calls
/// it for `CBConnectPeripheralOptionNotifyOn…`, on virtual time.
@Suite("Connection alerts of several apps on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(2)))
@MainActor
struct PhoneConnectionAlertTests {
    @Test("Rule 5: two suspended apps asked for a sensor's notification alert; only the one most recently in the foreground shows it on the timeline")
    func mostRecentlyForeground() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let sensor = "5E1F0A2B-0000-4000-8000-000000000001"
        for name in ["Pulse", "Coach"] {
            try phone.install(AppDescription(name: name)) { _ in }
            phone.requestConnectionAlerts(["Notification from"], peripheral: sensor, for: name)
        }
        for name in ["Pulse", "Coach"] {
            try phone.perform(.launch(name))
            try await testClock.sleep(seconds: 1)
            try phone.perform(.background(name))
        }
        try await testClock.sleep(seconds: 10)
        #expect(phone.state(of: "Pulse") == .suspended)
        #expect(phone.state(of: "Coach") == .suspended)
        let shown = [phone.alert("Notification from Polar H10", kind: "Notification from", peripheral: sensor, for: "Pulse"),
                     phone.alert("Notification from Polar H10", kind: "Notification from", peripheral: sensor, for: "Coach")]
        #expect(shown == [false, true])
        let alerts = phone.timeline.compactMap { entry -> String? in
            if case let .alert(app, message) = entry.output { "\(app): \(message)" } else { nil }
        }
        #expect(alerts == ["Coach: Notification from Polar H10"])
        phone.close()
    }
}
