import BLEBeacons
import BLEPhone
import BLEScenarios
import BLEWorld
import Foundation
import Testing

/// The package root, from this file's path.
private func packageRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

@Suite("Bundled scenarios")
struct BundledScenarioTests {
    @Test("Each bundled scenario is byte-for-byte the YAML file in Scenarios/ (run scripts/embed-scenarios.py after editing one)")
    func sameAsFiles() throws {
        for name in BundledScenarios.names {
            let file = packageRoot().appendingPathComponent("Scenarios/\(name).yaml")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(BundledScenarios.yaml(named: name).map { $0 + "\n" } == text, "\(name).yaml differs from its embedded copy")
            #expect(try BundledScenarios.scenario(named: name) == ScenarioLoader.load(path: file.path))
        }
    }

    @Test("Every bundled scenario has exactly one of observers without a host, a phone running programs (which may observe itself), or fleet gateways or a field system (system:), a duration, and builds")
    func allBuild() throws {
        for name in BundledScenarios.names {
            let scenario = try BundledScenarios.scenario(named: name)
            let programs = scenario.devices.contains { $0.program != nil || $0.apps.contains { $0.program != nil } }
            let fleet = scenario.devices.contains { $0.gateway != nil } || scenario.system != nil
            // A phone with its own host observes in its story (docs/phone.md), not in a timeline.
            let observers = scenario.devices.contains { $0.observing != nil && $0.host != .external }
            #expect([observers, programs, fleet].filter { $0 }.count == 1, "\(name)")
            #expect(scenario.durationSeconds != nil)
            _ = try ScenarioRunner(scenario: scenario)
        }
    }

    @Test("Every app action a scenario can name is an action of the phone's system")
    func appActionsMap() {
        for verb in ScenarioAppAction.allCases {
            #expect(PhoneAction(named: verb.rawValue, app: "A") != nil, "\(verb)")
        }
        #expect(PhoneAction(named: "terminate", app: "A") == .terminate("A", .system))
        #expect(PhoneAction(named: "crash", app: "A") == .terminate("A", .crash))
        #expect(PhoneAction(named: "uninstall", app: "A") == nil)
    }

    @Test("An unknown name is refused with the list of names")
    func unknownName() {
        #expect(throws: ScenarioError.self) { try BundledScenarios.scenario(named: "tram") }
        do {
            _ = try BundledScenarios.scenario(named: "tram")
        } catch {
            #expect(error.kind == .unknownBuiltIn)
            #expect(error.message.contains("walk, bus-stop, bus-stop-coded, bus-stop-pocket, bus-route, crowd, car"))
        }
    }
}

@Suite("Timeline rendering")
struct TimelineRenderingTests {
    static let identity = IBeaconIdentity(uuid: ProximityUUID(0x5A4B_CFCE_174E_4BAC_A814_092E_77F6_B7E5), major: 1, minor: 2)
    static let sighting = BeaconSighting(beacon: "shop beacon", identity: identity, rssi: -34, distance: 0.06,
                                         observerPosition: Vector3(x: 0, y: 0.05, z: 1.2), heardAt: 39_950_000)

    @Test("Text lines give the time, device, what happened and the figures")
    func textLines() {
        let enter = ScenarioTimelineEvent(time: 12_000_000, device: "rider", kind: .entered(region: "stop 2"))
        #expect(ScenarioTimeline.line(enter) == "   12.0 s  rider  enter \"stop 2\"")
        let immediate = ScenarioTimelineEvent(time: 40_000_000, device: "walker",
                                              kind: .proximity(Self.sighting, .immediate, filteredRSSI: -34, accuracy: 0.1))
        #expect(ScenarioTimeline.line(immediate)
            == "   40.0 s  walker  immediate \"shop beacon\" (-34.0 dBm filtered, ≈ 10 cm, true 6 cm)")
        let unknown = ScenarioTimelineEvent(time: 49_000_000, device: "walker",
                                            kind: .proximity(Self.sighting, .unknown, filteredRSSI: nil, accuracy: -1))
        #expect(ScenarioTimeline.line(unknown) == "   49.0 s  walker  unknown \"shop beacon\" (last heard 40.0 s, 6 cm)")
        let first = ScenarioTimelineEvent(time: 123_400_000, device: "visitor", kind: .firstHeard(Self.sighting))
        #expect(ScenarioTimeline.line(first) == "  123.4 s  visitor  hears \"shop beacon\" first (-34 dBm, 6 cm)")
    }

    @Test("JSON lines keep their keys in order and carry the beacon's identity")
    func jsonLines() {
        let passed = ScenarioTimelineEvent(time: 39_950_000, device: "rider", kind: .passed(Self.sighting))
        #expect(ScenarioTimeline.json(passed).text == #"{"time": 39.950000, "device": "rider", "event": "passed", "#
            + #""beacon": "shop beacon", "uuid": "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5", "major": 1, "minor": 2, "#
            + #""rssi": -34, "distance": 0.06, "heardAt": 39.950000}"#)
        let exit = ScenarioTimelineEvent(time: 76_900_000, device: "walker", kind: .exited(region: "shop"))
        #expect(ScenarioTimeline.json(exit).text == #"{"time": 76.900000, "device": "walker", "event": "exit", "region": "shop"}"#)
    }
}
