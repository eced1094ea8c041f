/// The ride a rider's phone saw, made of region events alone (sans-IO: events and their times
/// in, at most one finished ride out), so the app's delegate stays thin and the rules are
/// tested without a world.
///
/// The rules, with a bus that carries its own beacons and stops that each have one:
/// - **Boarding** is entering the bus's region; the boarding stop is the stop whose region
///   the phone is in then (the one entered last, if several).
/// - **Stops** are the stop regions entered while on the bus, in order, the boarding stop
///   first; a stop entered again without another in between counts once.
/// - **Alighting** is leaving the bus's region; the alighting stop is the last stop entered
///   on the bus. A bus region left where it was entered (a rider who let the bus go) is no
///   ride.
public struct RideRecorder: Sendable {
    /// A stop of the ride and when the phone learned of it, in microseconds since 1970.
    public struct Stop: Hashable, Sendable, Codable {
        /// The stop's name (its region's identifier).
        public var zone: String
        /// When the phone was told, in microseconds since 1970.
        public var time: Int64

        /// The stop `zone`, reached at `time`.
        public init(zone: String, time: Int64) {
            self.zone = zone
            self.time = time
        }
    }

    /// A finished ride: where it began and ended, and every stop on it.
    public struct Ride: Hashable, Sendable {
        /// The stop where the rider boarded.
        public var boarded: Stop
        /// The stop where the rider got off.
        public var alighted: Stop
        /// Every stop on the ride in order, boarding and alighting stops included.
        public var stops: [Stop]

        /// The stops between boarding and alighting.
        public var passed: [Stop] { Array(stops.dropFirst().dropLast()) }
    }

    /// The bus's region identifier.
    public let busRegion: String
    /// The stops' region identifiers.
    public let stopRegions: Set<String>
    /// The stop regions the phone is in now, in the order entered.
    public private(set) var insideStops: [Stop] = []
    /// The stops of the ride under way; `nil` while not on the bus.
    public private(set) var current: [Stop]?

    /// A recorder for the bus whose region is `busRegion` and the stops whose regions are `stopRegions`.
    public init(busRegion: String, stopRegions: Set<String>) {
        self.busRegion = busRegion
        self.stopRegions = stopRegions
    }

    /// The phone entered `region` at `time`; regions neither the bus's nor a stop's are ignored.
    public mutating func entered(_ region: String, at time: Int64) {
        if region == busRegion {
            guard current == nil else { return }
            current = insideStops.last.map { [Stop(zone: $0.zone, time: time)] } ?? []
        } else if stopRegions.contains(region) {
            insideStops.removeAll { $0.zone == region }
            insideStops.append(Stop(zone: region, time: time))
            if current != nil, current?.last?.zone != region { current?.append(Stop(zone: region, time: time)) }
        }
    }

    /// The phone left `region` at `time`: the finished ride when it was the bus's and the
    /// rider went from one stop to another, else `nil`.
    public mutating func exited(_ region: String, at time: Int64) -> Ride? {
        if stopRegions.contains(region) {
            insideStops.removeAll { $0.zone == region }
            return nil
        }
        guard region == busRegion, let stops = current else { return nil }
        current = nil
        guard let first = stops.first, let last = stops.last, stops.count >= 2, first.zone != last.zone else { return nil }
        return Ride(boarded: first, alighted: Stop(zone: last.zone, time: time), stops: stops)
    }
}
