import BLEScenarios
import BLEWorld
import Foundation
import Testing

@Test("scratch") func scratch() throws {
    let name = ProcessInfo.processInfo.environment["SCRATCH"] ?? "walk"
    let scenario = try ScenarioLoader.load(path: "/work/wt-scen/Scenarios/\(name).yaml")
    if name == "crowd" {
        for interval in [100.0, 200, 300, 500, 1000] {
            for seed in UInt64(1) ... 3 {
                var s = scenario
                s.seed = seed
                for i in s.devices.indices where s.devices[i].advertising != nil { s.devices[i].advertising?.intervalMilliseconds = interval }
                let t = try ScenarioRunner(scenario: s).run(until: 20)
                let firsts = t.events.filter { if case .firstHeard = $0.kind { return true }; return false }.map(\.seconds).sorted()
                print(interval, seed, firsts.count, firsts.last ?? -1, firsts.count > 190 ? firsts[190] : -1, t.receptions.count)
            }
        }
        return
    }
    let runner = try ScenarioRunner(scenario: scenario)
    let timeline = runner.run(until: scenario.durationSeconds ?? 30)
    print(timeline.text)
    print("receptions", timeline.receptions.count, timeline.failures)
}
