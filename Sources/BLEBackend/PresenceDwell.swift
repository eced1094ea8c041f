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

    /// The visits the hysteresis algorithm makes of `sightings`, replayed from the first to the
    /// last: each time it places an identity in a zone, from then until it places it elsewhere
    /// (or the last sighting); ordered by arrival, then identity, then zone. A visit counts the
    /// identity's sightings in its zone during it, and keeps their strongest RSSI.
    ///
    /// - Returns: `nil` when the sightings span more than ``presenceSpan``.
    public static func presenceVisits(_ sightings: [ZoneSighting]) -> [ZoneVisit]? {
        guard let first = sightings.map(\.time).min(), let last = sightings.map(\.time).max() else { return [] }
        guard Self.microseconds(from: first, to: last) <= presenceSpan else { return nil }
        func seconds(_ time: Int64) -> Double { Double(time - first) / 1_000_000 }
        func microseconds(_ seconds: Double) -> Int64 { first + Int64((seconds * 1_000_000).rounded()) }
        let zones = ZoneMap(Dictionary(sightings.map { ($0.gateway, $0.zone) }, uniquingKeysWith: { first, _ in first }))
        let ordered = sightings.sorted { ($0.time, $0.identity, $0.gateway) < ($1.time, $1.identity, $1.gateway) }
        let observations = ordered.map { PresenceObservation(time: seconds($0.time), identity: $0.identity, gateway: $0.gateway, rssi: $0.rssi) }
        let end = seconds(last)
        let run = PresenceRunner().run(HysteresisPresence(zoneMap: zones), observations: observations, from: 0, until: end)
        let byIdentity = Dictionary(grouping: ordered, by: \.identity)
        var visits: [ZoneVisit] = []
        for (identity, timeline) in run.timelines {
            let changes = timeline.changes
            for (index, change) in changes.enumerated() {
                guard let zone = change.zone else { continue }
                let arrival = microseconds(change.time)
                let departure = min(last, microseconds(index + 1 < changes.count ? changes[index + 1].time : end))
                let heard = (byIdentity[identity] ?? []).filter { $0.time >= arrival && $0.time <= departure }
                let during = heard.filter { $0.zone == zone }
                // Held in the zone while heard only elsewhere: the strongest of those; -127 dBm
                // (the least RSSI HCI reports) when not heard at all.
                visits.append(ZoneVisit(identity: identity, zone: zone, arrival: arrival, departure: max(arrival, departure), sightings: during.count,
                                        strongestRssi: during.map(\.rssi).max() ?? heard.map(\.rssi).max() ?? -127))
            }
        }
        return visits.sorted { ($0.arrival, $0.identity, $0.zone) < ($1.arrival, $1.identity, $1.zone) }
    }

    /// The time each identity spent in each zone by the hysteresis algorithm (the lengths of
    /// its ``presenceVisits(_:)``); ordered by zone, then identity.
    ///
    /// - Returns: `nil` when the sightings span more than ``presenceSpan``.
    public static func presenceDwell(_ sightings: [ZoneSighting]) -> [ZoneDwell]? {
        presenceVisits(sightings).map(dwell)
    }
}
