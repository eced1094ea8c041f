/// A sighting placed in a zone: what the visit, passage, dwell and location answers are made of.
/// The zone is the one an operator assigned to the sighting's gateway, or the gateway's name
/// when none was assigned (as `ble gateway --zone` defaults to the name).
public struct ZoneSighting: Hashable, Sendable {
    /// What was seen.
    public var identity: String
    /// The zone of the gateway that saw it.
    public var zone: String
    /// The gateway that saw it.
    public var gateway: String
    /// When, in microseconds since the epoch.
    public var time: Int64
    /// How strongly, in dBm.
    public var rssi: Int

    /// A zoned sighting with every field given.
    public init(identity: String, zone: String, gateway: String, time: Int64, rssi: Int) {
        self.identity = identity
        self.zone = zone
        self.gateway = gateway
        self.time = time
        self.rssi = rssi
    }
}

/// One stay of an identity in a zone: from the first to the last sighting of a run of sightings
/// in that zone with no silence longer than the gap between two of them.
public struct ZoneVisit: Hashable, Sendable, Codable {
    /// Who stayed.
    public var identity: String
    /// Where.
    public var zone: String
    /// The first time heard there, in microseconds since the epoch.
    public var arrival: Int64
    /// The last time heard there, in microseconds since the epoch.
    public var departure: Int64
    /// How many sightings the visit holds.
    public var sightings: Int
    /// The strongest RSSI of the visit, in dBm.
    public var strongestRssi: Int

    /// A visit with every field given.
    public init(identity: String, zone: String, arrival: Int64, departure: Int64, sightings: Int, strongestRssi: Int) {
        self.identity = identity
        self.zone = zone
        self.arrival = arrival
        self.departure = departure
        self.sightings = sightings
        self.strongestRssi = strongestRssi
    }
}

/// The time an identity spent in a zone: the sum of its visits' lengths.
public struct ZoneDwell: Hashable, Sendable, Codable {
    /// The zone.
    public var zone: String
    /// The identity.
    public var identity: String
    /// Seconds from arrival to departure, added up over the visits.
    public var seconds: Double
    /// How many visits.
    public var visits: Int

    /// A dwell with every field given.
    public init(zone: String, identity: String, seconds: Double, visits: Int) {
        self.zone = zone
        self.identity = identity
        self.seconds = seconds
        self.visits = visits
    }
}

/// Visits, dwell and location from zoned sightings: pure functions, no store and no clock, so
/// that both engines' rows give the same answers and the tests need no server.
///
/// A visit ends when an identity goes unheard in a zone for longer than the gap. The presence
/// algorithms (BLEPresence) decide a single zone at a time with hysteresis; these answers are
/// simpler on purpose, per zone, so that overlapping zones each keep their own visits, as a bus
/// office asks "when did bus 42 pass stop 3" rather than "where was it".
public enum ZoneVisits {
    /// The visits in `sightings`, ordered by arrival, then identity, then zone.
    ///
    /// - Parameters:
    ///   - sightings: Sightings in any order.
    ///   - gap: The longest silence, in microseconds, within one visit; a longer one starts a new visit.
    /// - Returns: One visit per run of sightings of one identity in one zone.
    public static func visits(_ sightings: [ZoneSighting], gap: Int64) -> [ZoneVisit] {
        let ordered = sightings.sorted { ($0.time, $0.identity, $0.zone, $0.gateway) < ($1.time, $1.identity, $1.zone, $1.gateway) }
        var visits: [ZoneVisit] = []
        var open: [VisitKey: Int] = [:]
        for sighting in ordered {
            let key = VisitKey(identity: sighting.identity, zone: sighting.zone)
            if let index = open[key], Self.microseconds(from: visits[index].departure, to: sighting.time) <= gap {
                visits[index].departure = sighting.time
                visits[index].sightings += 1
                visits[index].strongestRssi = max(visits[index].strongestRssi, sighting.rssi)
            } else {
                open[key] = visits.count
                visits.append(ZoneVisit(identity: sighting.identity, zone: sighting.zone, arrival: sighting.time, departure: sighting.time,
                                        sightings: 1, strongestRssi: sighting.rssi))
            }
        }
        // Appended in order of arrival already (sightings are sorted by time); ties by identity and zone.
        return visits.sorted { ($0.arrival, $0.identity, $0.zone) < ($1.arrival, $1.identity, $1.zone) }
    }

    /// The dwell per zone and identity of `visits`, ordered by zone, then identity.
    public static func dwell(_ visits: [ZoneVisit]) -> [ZoneDwell] {
        var totals: [VisitKey: (microseconds: Int64, visits: Int)] = [:]
        for visit in visits {
            let key = VisitKey(identity: visit.identity, zone: visit.zone)
            let total = totals[key] ?? (0, 0)
            let (sum, overflow) = total.microseconds.addingReportingOverflow(Self.microseconds(from: visit.arrival, to: visit.departure))
            totals[key] = (overflow ? Int64.max : sum, total.visits + 1)
        }
        return totals.map { key, total in
            ZoneDwell(zone: key.zone, identity: key.identity, seconds: Double(total.microseconds) / 1_000_000, visits: total.visits)
        }.sorted { ($0.zone, $0.identity) < ($1.zone, $1.identity) }
    }

    /// Where an identity is now: among its sightings within `window` microseconds of its latest,
    /// the strongest (the nearest gateway, as RSSI falls with distance); on equal RSSI the later.
    ///
    /// - Returns: `nil` when `sightings` is empty.
    public static func location(_ sightings: [ZoneSighting], window: Int64) -> ZoneSighting? {
        guard let latest = sightings.map(\.time).max() else { return nil }
        return sightings.filter { Self.microseconds(from: $0.time, to: latest) <= window }
            .max { ($0.rssi, $0.time, $1.gateway) < ($1.rssi, $1.time, $0.gateway) }
    }

    /// `end - start`, saturating at `Int64.max` instead of trapping on times far apart (a row
    /// from another program may hold any time).
    static func microseconds(from start: Int64, to end: Int64) -> Int64 {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        return overflow ? (end > start ? Int64.max : Int64.min) : difference
    }

    private struct VisitKey: Hashable {
        let identity: String
        let zone: String
    }
}
