/// A ride a passenger's phone logged: who rode which vehicle on which route, where and when they
/// boarded and alighted, and the stops passed between (issue 29, "Ride log"). The phone posts it
/// to the back end, which stores it under a reference number the passenger can quote.
public struct RideLog: Hashable, Sendable, Codable {
    /// The reference the back end gave the ride (`R-XXXX-XXXX`); `nil` until it is stored.
    public var reference: String?
    /// The rider: the identity of the rider's phone or beacon, as the app names it.
    public var rider: String
    /// The vehicle ridden, as its beacon's identity (e.g. `ibeacon:…:42:1`).
    public var vehicle: String
    /// The route, when the app knows it (e.g. `"42"`).
    public var route: String?
    /// Where and when the rider boarded.
    public var boarded: Stop
    /// Where and when the rider alighted; `nil` while the ride goes on.
    public var alighted: Stop?
    /// The stops passed between boarding and alighting, in order.
    public var stops: [Stop]
    /// When the phone posted the ride, in microseconds since the epoch (virtual time in a simulation).
    public var postedAt: Int64

    /// A ride log with every field given.
    public init(reference: String? = nil, rider: String, vehicle: String, route: String?, boarded: Stop, alighted: Stop?, stops: [Stop], postedAt: Int64) {
        self.reference = reference
        self.rider = rider
        self.vehicle = vehicle
        self.route = route
        self.boarded = boarded
        self.alighted = alighted
        self.stops = stops
        self.postedAt = postedAt
    }

    /// A zone (a stop) at a time.
    public struct Stop: Hashable, Sendable, Codable {
        /// The zone, as the fleet's gateways name it.
        public var zone: String
        /// When, in microseconds since the epoch.
        public var time: Int64

        /// A stop with every field given.
        public init(zone: String, time: Int64) {
            self.zone = zone
            self.time = time
        }
    }
}
