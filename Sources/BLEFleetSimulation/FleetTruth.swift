/// The world's truth about where each tracked identity is: per identity, the zone its
/// device is in, sampled at a fixed step by a ``FleetWorldRun`` (`nil`: in no zone).
public struct FleetTruth: Hashable, Sendable {
    /// One sample.
    public struct Sample: Hashable, Sendable {
        /// Seconds of simulated time.
        public var time: Double
        /// The zone, or `nil` for none.
        public var zone: String?
    }

    /// The samples of each identity, in time order.
    public private(set) var samples: [String: [Sample]] = [:]

    /// An empty truth.
    public init() {}

    /// Records that `identity` is in `zone` at `time` (times must not go back).
    public mutating func record(identity: String, time: Double, zone: String?) {
        samples[identity, default: []].append(Sample(time: time, zone: zone))
    }

    /// The identities with samples, sorted.
    public var identities: [String] { samples.keys.sorted() }
}
