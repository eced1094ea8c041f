import BLEBeacons
import BLEScenarios
import BLEWorld

/// A bundled scenario run to its duration (or `until`), optionally changed first.
func runBundled(_ name: String, seed: UInt64? = nil, until: Double? = nil,
                change: (inout Scenario) -> Void = { _ in }) throws -> ScenarioTimeline {
    var scenario = try BundledScenarios.scenario(named: name)
    if let seed { scenario.seed = seed }
    change(&scenario)
    let runner = try ScenarioRunner(scenario: scenario)
    return runner.run(until: until ?? scenario.durationSeconds ?? 60)
}

extension ScenarioTimeline {
    /// One device's proximity classes for one beacon, in order, with each event.
    func proximities(of device: String) -> [(BeaconProximity, ScenarioTimelineEvent)] {
        events(of: device).compactMap { event in event.proximity.map { ($0, event) } }
    }

    /// One device's events of a kind, by a short name: firstHeard, enter, exit, proximity,
    /// passed, action.
    func events(of device: String, _ kind: String) -> [ScenarioTimelineEvent] {
        events(of: device).filter { $0.kindName == kind }
    }
}

extension ScenarioTimelineEvent {
    /// firstHeard, enter, exit, proximity, passed or action.
    var kindName: String {
        switch kind {
        case .firstHeard: return "firstHeard"
        case .entered: return "enter"
        case .exited: return "exit"
        case .proximity: return "proximity"
        case .passed: return "passed"
        case .action: return "action"
        case .app: return "app"
        }
    }
}
