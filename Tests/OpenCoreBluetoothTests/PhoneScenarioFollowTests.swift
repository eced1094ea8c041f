import BLE
import BLEWorld
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

/// A program of the user's as an app of a scenario's phone: it opens the scenario's world,
/// installs the app the file names with its own launch entry point, and the scenario's
/// actions happen to it at their times, on virtual time.
@Suite("A program follows its scenario's phone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneScenarioFollowTests {
    private func scenario(_ name: String) throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try ScenarioLoader.load(path: root.appendingPathComponent("Scenarios/\(name).yaml").path)
    }

    @Test("The scenario's terminate and the strap's next measurement relaunch the user's app, restored first")
    func followsRestoreStory() async throws {
        let device = try await BLEDevice.open(scenario: try scenario("heart-rate-restore"), profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        #expect(phone.scenarioApps.map(\.name) == ["Pulse"])
        let launches = Launches<HeartRateCentral>()
        try phone.install(scenarioApp: "Pulse") { options in
            launches.options.append(options)
            launches.apps.append(HeartRateCentral(options: [CBCentralManagerOptionRestoreIdentifierKey: "pulse"]))
        }
        #expect(phone.modes(of: "Pulse") == .bluetoothCentral)
        try phone.followScenario()
        #expect(throws: PhoneError.self) { try phone.followScenario() }
        try await testClock.sleep(untilMicroseconds: 40_000_000)
        #expect(launches.options == [PhoneLaunchOptions(), PhoneLaunchOptions(bluetoothCentrals: ["pulse"])])
        let second = try #require(launches.apps.last)
        #expect(Array(second.log.prefix(3)) == ["willRestoreState 1", "didUpdateState 5", "didUpdateValueFor 2A37"])
        #expect(second.measurements.count >= 10)
        phone.close()
        await device.close()
    }

    @Test("A scenario's screen action reaches the phone that follows it: off, the app on screen goes to the background and is suspended")
    func followsScreen() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOfFile: root.appendingPathComponent("Scenarios/heart-rate-restore.yaml").path, encoding: .utf8)
        let line = "  - {at: 10, app: {device: iPhone, app: Pulse, do: background}}"
        #expect(text.contains(line))
        let scenario = try ScenarioLoader.parse(yaml: text.replacingOccurrences(of: line, with: "  - {at: 10, screen: {device: iPhone, on: false}}"))
        let device = try await BLEDevice.open(scenario: scenario, profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        try phone.install(scenarioApp: "Pulse") { _ in _ = HeartRateCentral(options: [:]) }
        try phone.followScenario()
        try await testClock.sleep(untilMicroseconds: 20_000_000)
        let moves = phone.timeline.compactMap { entry -> String? in
            guard case let .stateChanged("Pulse", from, to) = entry.output else { return nil }
            return "\(entry.time / 1_000_000) \(from) → \(to)"
        }
        #expect(moves == ["1 notRunning → foreground", "10 foreground → background", "15 background → suspended"], "\(moves)")
        phone.close()
        await device.close()
    }

    @Test("A scenario app's bluetooth answer and usage description reach the phone: refused, its manager is unauthorized; without a description, it is terminated")
    func scenarioBluetoothPermission() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOfFile: root.appendingPathComponent("Scenarios/heart-rate-restore.yaml").path, encoding: .utf8)
        let line = "{name: Pulse, program: heart-rate-monitor, modes: [bluetooth-central], restoresState: true}"
        #expect(text.contains(line))
        let refusing = text.replacingOccurrences(of: line, with: """
            {name: Pulse, modes: [bluetooth-central], bluetooth: deny}
                  - {name: Leaky, bluetoothUsageDescription: false}
            """)
        let scenario = try ScenarioLoader.parse(yaml: refusing)
        #expect(scenario.devices[0].apps.map(\.bluetooth) == ["deny", "allow"])
        #expect(scenario.devices[0].apps.map(\.bluetoothUsageDescription) == [ScenarioApp.defaultBluetoothUsageDescription, nil])
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: refusing.replacingOccurrences(of: "bluetooth: deny", with: "bluetooth: maybe")) }

        let device = try await BLEDevice.open(scenario: scenario, profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        let launches = Launches<HeartRateCentral>()
        for name in ["Pulse", "Leaky"] {
            try phone.install(scenarioApp: name) { _ in launches.apps.append(HeartRateCentral(options: [:])) }
        }
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { launches.apps.first?.log == ["didUpdateState 3"] })
        #expect(phone.bluetoothAuthorization(of: "Pulse") == .denied)
        try phone.perform(.launch("Leaky"))
        #expect(await eventually { phone.state(of: "Leaky") == .terminated(.crash) })
        phone.close()
        await device.close()
    }

    @Test("Following is refused off a scenario, with an app of the scenario not installed, or for an app it does not have")
    func refusals() async throws {
        let device = try await BLEDevice.open(scenario: try scenario("heart-rate-force-quit"), profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        #expect(throws: PhoneError.unknownApp("Mail")) { try phone.install(scenarioApp: "Mail") { _ in } }
        do {
            try phone.followScenario()
            Issue.record("followed with Pulse not installed")
        } catch {
            #expect(error.description.contains("Pulse are not installed"), "\(error)")
        }
        phone.close()
        await device.close()
        let clockOnly = SimulatedPhone(clock: testClock)
        #expect(clockOnly.scenarioApps.isEmpty)
        #expect(throws: PhoneError.self) { try clockOnly.followScenario() }
    }
}
