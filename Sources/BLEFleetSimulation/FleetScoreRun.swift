import BLEFleet
import BLEFleetStore
import BLEPresence
import BLEWorld

/// `ble presence score`: plays a scenario's fleet, writes its sightings to a store the way
/// gateways do (idempotent batches), reads them back, and scores the presence algorithms on
/// what the store holds against the world's truth.
public enum FleetScoreRun {
    /// What a scoring run produced.
    public struct Result: Sendable {
        /// The scenario's name and seed.
        public var scenario: String
        /// The seed.
        public var seed: UInt64
        /// Simulated seconds scored.
        public var duration: Double
        /// Sightings the gateways kept (and the store holds).
        public var sightings: Int
        /// Identities scored.
        public var identities: [String]
        /// Each algorithm's run and score.
        public var outcomes: [FleetPresenceScoring.Outcome]
    }

    /// Runs `scenario` for `duration` simulated seconds (its own duration by default) into
    /// `store` (migrated first) and scores `algorithms` (the standard three by default).
    /// - Throws: ``FleetRunError`` for a scenario without usable gateways, ``FleetStoreError``
    ///   when the store refuses.
    public static func run(scenario: Scenario, store: any FleetStore, duration: Double? = nil,
                           algorithms: ((ZoneMap) -> [any PresenceAlgorithm])? = nil) async throws -> Result {
        try await store.migrate()
        let run = try FleetWorldRun(scenario: scenario)
        let seconds = duration ?? scenario.durationSeconds ?? 60
        // The world runs in slices so that batches reach the store as the run goes, as they would from gateways.
        var time = 0.0
        while time < seconds {
            time = min(seconds, time + 10)
            run.run(until: time, flush: time >= seconds)
            for batch in run.takeBatches() { _ = try await store.write(batch) }
        }
        let stored = try await store.sightings(from: run.epoch, to: run.epoch + Int64((seconds * 1_000_000).rounded()) + 1,
                                               identity: nil, gateway: nil, limit: nil)
        let zones = ZoneMap(run.zoneOfGateway)
        let observations = FleetPresenceScoring.observations(from: stored, epoch: run.epoch)
        let outcomes = FleetPresenceScoring.score(observations: observations, truth: run.truth, duration: seconds,
                                                  algorithms: algorithms?(zones) ?? FleetPresenceScoring.standardAlgorithms(zones: zones))
        return Result(scenario: scenario.name, seed: scenario.seed, duration: seconds, sightings: stored.count,
                      identities: run.truth.identities, outcomes: outcomes)
    }
}
