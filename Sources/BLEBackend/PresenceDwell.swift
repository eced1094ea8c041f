import BLEPresence

/// Dwell by presence: the time the project's hysteresis presence algorithm (BLEPresence's
/// ``HysteresisPresence``, the one `ble presence score` rates best, docs/presence.md) placed an
/// identity in each zone. Unlike the strongest mean RSSI per slot
/// (``ZoneVisits/nearestDwell(_:slot:gap:)``), it holds a zone until another is clearly and
/// steadily stronger, so a wearer standing with their back to a room's gateway is not handed to
/// the next room whose gateway, through the wall, is heard about as well.
extension ZoneVisits {
    /// The longest span of sightings ``presenceDwell(_:)`` replays: the algorithm is stepped
    /// every half second, so a range of years would take years of steps.
    public static let presenceSpan: Int64 = 7 * 86_400 * 1_000_000

    /// The time each identity spent in each zone by the hysteresis algorithm, replayed over
    /// `sightings` from the first to the last; ordered by zone, then identity.
    ///
    /// - Returns: `nil` when the sightings span more than ``presenceSpan``.
    public static func presenceDwell(_ sightings: [ZoneSighting]) -> [ZoneDwell]? {
        guard let first = sightings.map(\.time).min(), let last = sightings.map(\.time).max() else { return [] }
        let span = Self.microseconds(from: first, to: last)
        guard span <= presenceSpan else { return nil }
        func seconds(_ time: Int64) -> Double { Double(time - first) / 1_000_000 }
        let zones = ZoneMap(Dictionary(sightings.map { ($0.gateway, $0.zone) }, uniquingKeysWith: { first, _ in first }))
        let observations = sightings.sorted { ($0.time, $0.identity, $0.gateway) < ($1.time, $1.identity, $1.gateway) }
            .map { PresenceObservation(time: seconds($0.time), identity: $0.identity, gateway: $0.gateway, rssi: $0.rssi) }
        let end = seconds(last)
        let run = PresenceRunner().run(HysteresisPresence(zoneMap: zones), observations: observations, from: 0, until: end)
        var totals: [String: [String: (seconds: Double, visits: Int)]] = [:]
        for (identity, timeline) in run.timelines {
            let changes = timeline.changes
            for (index, change) in changes.enumerated() {
                guard let zone = change.zone else { continue }
                let until = index + 1 < changes.count ? changes[index + 1].time : end
                let total = totals[identity, default: [:]][zone] ?? (0, 0)
                totals[identity, default: [:]][zone] = (total.seconds + max(0, until - change.time), total.visits + 1)
            }
        }
        return totals.flatMap { identity, zones in
            zones.map { ZoneDwell(zone: $0.key, identity: identity, seconds: ($0.value.seconds * 10).rounded() / 10, visits: $0.value.visits) }
        }.sorted { ($0.zone, $0.identity) < ($1.zone, $1.identity) }
    }
}
