import BLEScenarios
import BLEWorld
import Foundation
import Testing

@Test("scratch") func scratch() throws {
    let name = ProcessInfo.processInfo.environment["SCRATCH"] ?? "walk"
    let scenario = try ScenarioLoader.load(path: "/work/wt-scen/Scenarios/\(name).yaml")
    let runner = try ScenarioRunner(scenario: scenario)
    let timeline = runner.run(until: scenario.durationSeconds ?? 30)
    print(timeline.text)
    print("receptions", timeline.receptions.count, timeline.failures)
}
