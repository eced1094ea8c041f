import BLEFleet
import BLEPresence

/// Scores presence algorithms on a fleet run's sightings against its truth
/// (`ble presence score`): each algorithm sees the sightings as a live system would, in
/// time order with its timer ticking, and its reported zones are compared with the zones
/// the world put each identity in (``PresenceScorer``).
public enum FleetPresenceScoring {
    /// The floor under which ours ignores a sighting in fleet runs, in dBm (see
    /// ``HysteresisPresence/Parameters-swift.struct/minimumRSSI``).
    public static let defaultMinimumRSSI = -90.0

    /// The three algorithms of docs/presence.md: ours with `parameters` (by default its defaults
    /// and a floor of ``defaultMinimumRSSI``), the ESPresense-style and the Home Assistant-style
    /// baselines with their published parameters, each with `zones`.
    public static func standardAlgorithms(zones: ZoneMap,
                                          parameters: HysteresisPresence.Parameters = HysteresisPresence.Parameters(minimumRSSI: defaultMinimumRSSI))
        -> [any PresenceAlgorithm] {
        [HysteresisPresence(zoneMap: zones, parameters: parameters), ESPresenseBaseline(zoneMap: zones), HomeAssistantBaseline(zoneMap: zones)]
    }

    /// The sightings as presence observations, in seconds since `epoch` (µs since 1970).
    public static func observations(from sightings: [Sighting], epoch: Int64) -> [PresenceObservation] {
        sightings.map {
            PresenceObservation(time: Double($0.time - epoch) / 1_000_000, identity: $0.identity, gateway: $0.gateway, rssi: $0.rssi,
                                referencePower: $0.txPower)
        }
    }

    /// The truth as one zone timeline per identity.
    public static func timelines(of truth: FleetTruth) -> [String: ZoneTimeline] {
        var result: [String: ZoneTimeline] = [:]
        for (identity, samples) in truth.samples { result[identity] = ZoneTimeline(samples.map { (time: $0.time, zone: $0.zone) }) }
        return result
    }

    /// One algorithm's run and score.
    public struct Outcome: Sendable {
        /// The algorithm's events and timelines.
        public var run: PresenceRunner.Run
        /// Its score.
        public var score: PresenceScore
    }

    /// Runs each of `algorithms` over `observations` from 0 to `duration` seconds and scores it
    /// against `truth`.
    public static func score(observations: [PresenceObservation], truth: FleetTruth, duration: Double,
                             algorithms: [any PresenceAlgorithm], runner: PresenceRunner = PresenceRunner(),
                             scorer: PresenceScorer = PresenceScorer()) -> [Outcome] {
        let truthTimelines = timelines(of: truth)
        return algorithms.map { algorithm in
            let run = runner.run(algorithm, observations: observations, from: 0, until: duration)
            let score = scorer.score(run.algorithm, reported: run.timelines, truth: truthTimelines, from: 0, until: duration)
            return Outcome(run: run, score: score)
        }
    }
}
