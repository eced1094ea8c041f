import BLEFleet
import BLEFleetSimulation
import BLEPresence
import BLEWorld
import SimulatedTesting
import Testing

@Suite("Presence scored against the world's truth", .ownThread, .takesTurns)
struct FleetPresenceScoringTests {
    static func outcomes(_ name: String) throws -> [FleetPresenceScoring.Outcome] {
        let scenario = try FleetWorldRunTests.scenario(name)
        let run = try FleetWorldRun(scenario: scenario)
        let duration = scenario.durationSeconds ?? 60
        run.run(until: duration)
        let observations = FleetPresenceScoring.observations(from: run.batches.flatMap(\.sightings), epoch: run.epoch)
        return FleetPresenceScoring.score(observations: observations, truth: run.truth, duration: duration,
                                          algorithms: FleetPresenceScoring.standardAlgorithms(zones: ZoneMap(run.zoneOfGateway)))
    }

    @Test("Each fleet scenario gives a score table of the three algorithms", arguments: ["bus-fleet", "shop", "flat"])
    func table(name: String) throws {
        let outcomes = try Self.outcomes(name)
        let table = PresenceScoreTable(outcomes.map(\.score))
        print("\(name):\n\(table.text)")
        #expect(outcomes.map(\.score.algorithm) == ["hysteresis", "espresense", "home-assistant"])
        #expect(outcomes.allSatisfy { $0.score.hours > 0 })
    }
}
