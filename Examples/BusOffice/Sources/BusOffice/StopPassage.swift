/// One passage of a bus at a stop: the first and last time any of its beacons was heard there.
public struct StopPassage: Hashable, Sendable {
    /// The stop (the zone of the gateways that heard the bus).
    public var stop: String
    /// The first time heard, in microseconds since the Unix epoch.
    public var arrival: Int64
    /// The last time heard.
    public var departure: Int64
    /// How many sightings the passage holds.
    public var sightings: Int

    /// A passage at `stop` from `arrival` to `departure`.
    public init(stop: String, arrival: Int64, departure: Int64, sightings: Int) {
        self.stop = stop
        self.arrival = arrival
        self.departure = departure
        self.sightings = sightings
    }

    /// Seconds between the first and the last time heard.
    public var seconds: Double { Double(departure - arrival) / 1_000_000 }

    /// Several beacons' visits merged: visits at one stop that overlap or lie within `gap`
    /// microseconds of each other are one passage. Ordered by arrival.
    public static func merging(_ visits: [StopPassage], gap: Int64) -> [StopPassage] {
        var merged: [StopPassage] = []
        for visit in visits.sorted(by: { ($0.arrival, $0.stop) < ($1.arrival, $1.stop) }) {
            if let index = merged.lastIndex(where: { $0.stop == visit.stop }),
               visit.arrival <= merged[index].departure.addingReportingOverflow(gap).partialValue {
                merged[index].departure = max(merged[index].departure, visit.departure)
                merged[index].sightings += visit.sightings
            } else {
                merged.append(visit)
            }
        }
        return merged.sorted { ($0.arrival, $0.stop) < ($1.arrival, $1.stop) }
    }
}
