import BLE

/// Finds visits in a device's measured positions, as Core Location's visit service reports
/// them (``CLLocationManager/startMonitoringVisits()``): a place the device stays at, an
/// arrival when it has stayed long enough, and a departure when it leaves.
///
/// Apple documents no thresholds; these are ours, in docs/phone.md: the device has
/// arrived once it has stayed within ``radius`` of where it stopped for ``dwell``, and has
/// left when a position falls outside that radius. The place's coordinate is the centroid of
/// the positions measured while there.
struct VisitDetector: Sendable {
    /// How far, in metres, a device may wander from where it stopped and still be there.
    static let radius = 100.0
    /// How long, in microseconds, it must stay before the stay counts as a visit: 5 minutes.
    static let dwell: Int64 = 300_000_000

    /// A visit begun or ended.
    enum Event: Equatable, Sendable {
        /// The device has been at `place` since `arrival`.
        case arrived(place: SimulatedLocation, arrival: Int64)
        /// The device was at `place` from `arrival` to `departure`.
        case departed(place: SimulatedLocation, arrival: Int64, departure: Int64)
    }

    /// Where the device stopped, since when, the sums for the centroid, and whether the
    /// arrival has been reported.
    private var anchor: SimulatedLocation?
    private var since: Int64 = 0
    private var lastInside: Int64 = 0
    private var sumEast = 0.0, sumNorth = 0.0, samples = 0
    private var arrived = false

    /// Takes the position measured at `time` and says what visit it begins or ends.
    mutating func feed(_ location: SimulatedLocation, at time: Int64) -> [Event] {
        guard let anchor else {
            restart(at: location, time: time)
            return []
        }
        let distance = ((location.east - anchor.east) * (location.east - anchor.east)
            + (location.north - anchor.north) * (location.north - anchor.north)).squareRoot()
        if distance <= Self.radius {
            sumEast += location.east
            sumNorth += location.north
            samples += 1
            lastInside = time
            guard !arrived, time - since >= Self.dwell else { return [] }
            arrived = true
            return [.arrived(place: centroid(anchor), arrival: since)]
        }
        let ended: [Event] = arrived ? [.departed(place: centroid(anchor), arrival: since, departure: lastInside)] : []
        restart(at: location, time: time)
        return ended
    }

    private mutating func restart(at location: SimulatedLocation, time: Int64) {
        anchor = location
        since = time
        lastInside = time
        sumEast = location.east
        sumNorth = location.north
        samples = 1
        arrived = false
    }

    private func centroid(_ anchor: SimulatedLocation) -> SimulatedLocation {
        var place = anchor
        place.east = sumEast / Double(samples)
        place.north = sumNorth / Double(samples)
        return place
    }
}

/// Decides which positions significant-change monitoring reports
/// (``CLLocationManager/startMonitoringSignificantLocationChanges()``), by the rule Apple
/// documents for the service: a notification as soon as the device has moved 500 m or more
/// from the previous one, and not more often than once every five minutes. The first
/// position after the start is reported at once.
struct SignificantChangeFilter: Sendable {
    /// Metres from the last reported position.
    static let distance = 500.0
    /// Int64 between reports, at least: five minutes.
    static let interval: Int64 = 300_000_000

    private var last: (east: Double, north: Double, time: Int64)?

    /// Whether the position measured at `time` is reported; if so, it becomes the last one.
    mutating func admits(_ location: SimulatedLocation, at time: Int64) -> Bool {
        if let last {
            let moved = ((location.east - last.east) * (location.east - last.east)
                + (location.north - last.north) * (location.north - last.north)).squareRoot()
            guard moved >= Self.distance, time - last.time >= Self.interval else { return false }
        }
        last = (location.east, location.north, time)
        return true
    }

    /// Forgets the last report: monitoring was stopped.
    mutating func reset() { last = nil }
}
