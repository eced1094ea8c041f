import BLE
import BLEWorld
import Foundation
@testable import OpenCoreLocation
import SimulatedTesting
import Testing

/// The Precise Location switch of a scenario's app (`preciseLocation:`): the user's choice at
/// the app's first location prompt reaches the Core Location manager its program makes.
@Suite("A scenario app's Precise Location switch", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct ScenarioPreciseLocationTests {
    static let pulse = "{name: Pulse, program: heart-rate-monitor, modes: [bluetooth-central], restoresState: true}"

    /// heart-rate-restore with Pulse's entry replaced by `app`.
    static func scenario(_ app: String) throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOfFile: root.appendingPathComponent("Scenarios/heart-rate-restore.yaml").path, encoding: .utf8)
        #expect(text.contains(pulse))
        return try ScenarioLoader.parse(yaml: text.replacingOccurrences(of: pulse, with: app))
    }

    @Test("preciseLocation: false gives the app's manager reduced accuracy at its first prompt; by default it has full accuracy",
          arguments: [true, false])
    func firstPrompt(precise: Bool) async throws {
        let entry = precise ? Self.pulse : Self.pulse.replacingOccurrences(of: "}", with: ", preciseLocation: false}")
        let scenario = try Self.scenario(entry)
        #expect(scenario.devices[0].apps.map(\.preciseLocation) == [precise])
        let device = try await BLEDevice.open(scenario: scenario, profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        let app = ReducedAccuracyTests.MapsApp()
        try phone.install(scenarioApp: "Pulse") { _ in
            let manager = CLLocationManager()
            manager.delegate = app.watcher
            manager.requestWhenInUseAuthorization()
            app.manager = manager
        }
        try phone.perform(.launch("Pulse"))
        try await testClock.sleep(seconds: 1)
        let expected: CLAccuracyAuthorization = precise ? .fullAccuracy : .reducedAccuracy
        #expect(app.manager?.accuracyAuthorization == expected)
        #expect(app.watcher.lines.last == "authorization 4 \(expected)", "\(app.watcher.lines)")
        phone.close()
        await device.close()
    }

    @Test("preciseLocation on an app without a program, or not true or false, is refused at its line")
    func refused() throws {
        let noProgram = #expect(throws: ScenarioError.self) { try Self.scenario("{name: Pulse, preciseLocation: false}") }
        #expect(noProgram?.description.contains("runs no program") == true, "\(String(describing: noProgram))")
        #expect(noProgram?.path.hasSuffix("preciseLocation") == true, "\(String(describing: noProgram))")
        let notBool = #expect(throws: ScenarioError.self) {
            try Self.scenario(Self.pulse.replacingOccurrences(of: "}", with: ", preciseLocation: approximate}"))
        }
        #expect(notBool?.description.contains("true or false") == true, "\(String(describing: notBool))")
        #expect(notBool?.line != nil)
    }

    @Test("The user turns Precise Location off and on in Settings while the app runs: its manager hears each change, with the new accuracyAuthorization")
    func settingsSwitch() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOfFile: root.appendingPathComponent("Scenarios/heart-rate-restore.yaml").path, encoding: .utf8)
        let launch = "  - {at: 1, app: {device: iPhone, app: Pulse, do: launch}}\n"
        #expect(text.contains(launch))
        let scenario = try ScenarioLoader.parse(yaml: text.replacingOccurrences(of: launch, with: launch + """
              - {at: 3, preciseLocation: {device: iPhone, app: Pulse, on: false}}
              - {at: 5, preciseLocation: {device: iPhone, app: Pulse, on: true}}

            """))
        #expect(scenario.actions.contains { $0.action == .preciseLocation("iPhone", app: "Pulse", on: false) })
        let device = try await BLEDevice.open(scenario: scenario, profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        let app = ReducedAccuracyTests.MapsApp()
        try phone.install(scenarioApp: "Pulse") { _ in
            let manager = CLLocationManager()
            manager.delegate = app.watcher
            manager.requestWhenInUseAuthorization()
            app.manager = manager
        }
        try phone.followScenario()
        try await testClock.sleep(seconds: 4)
        #expect(app.manager?.accuracyAuthorization == .reducedAccuracy)
        #expect(app.watcher.lines.last == "authorization 4 reducedAccuracy", "\(app.watcher.lines)")
        try await testClock.sleep(seconds: 2)
        #expect(app.manager?.accuracyAuthorization == .fullAccuracy)
        #expect(Array(app.watcher.lines.suffix(2)) == ["authorization 4 reducedAccuracy", "authorization 4 fullAccuracy"], "\(app.watcher.lines)")
        let settings = phone.timeline.compactMap { entry in
            if case let .alert(app: "Settings", message) = entry.output { message } else { nil }
        }
        #expect(settings == ["Precise Location off for “Pulse”", "Precise Location on for “Pulse”"], "\(settings)")
        phone.close()
        await device.close()
    }

    @Test("A Precise Location action for an app without a program, or an app not installed, is refused naming the action")
    func actionRefused() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOfFile: root.appendingPathComponent("Scenarios/heart-rate-restore.yaml").path, encoding: .utf8)
        for (entry, action, words) in [
            (Self.pulse, "{device: iPhone, app: Maps, on: false}", "no app called \"Maps\""),
            ("{name: Pulse}", "{device: iPhone, app: Pulse, on: false}", "runs no program"),
            (Self.pulse, "{device: iPhone, app: Pulse, on: maybe}", "true or false"),
            (Self.pulse, "{device: iPhone, app: Pulse}", "on"),
        ] {
            let yaml = text.replacingOccurrences(of: Self.pulse, with: entry) + "  - {at: 3, preciseLocation: \(action)}\n"
            let error = #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml) }
            #expect(error?.description.contains(words) == true, "\(String(describing: error))")
            #expect(error?.path.contains("actions") == true, "\(String(describing: error))")
        }
    }
}
