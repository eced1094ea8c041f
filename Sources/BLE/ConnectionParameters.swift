import BLEHost

/// The parameters a connection runs with (Core 5.4, Vol 6, Part B, §4.5.1–4.5.2), in time
/// rather than the controller's units.
public struct ConnectionParameters: Hashable, Sendable, CustomStringConvertible {
    /// The time between connection events (7.5 ms to 4 s, in steps of 1.25 ms).
    public var interval: Duration
    /// How many connection events the peripheral may skip (0 to 499).
    public var latency: Int
    /// How long the link may go unheard before it is lost (100 ms to 32 s).
    public var supervisionTimeout: Duration

    /// Parameters with every value given.
    public init(interval: Duration, latency: Int, supervisionTimeout: Duration) {
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    /// The parameters GAP reports, converted from 1.25 ms and 10 ms units.
    init(_ parameters: GAPConnectionParameters) {
        interval = .microseconds(Int64(parameters.interval) * 1250)
        latency = Int(parameters.latency)
        supervisionTimeout = .milliseconds(Int64(parameters.supervisionTimeout) * 10)
    }

    /// "interval 30 ms, latency 0, timeout 2000 ms".
    public var description: String {
        "interval \(Self.milliseconds(interval)) ms, latency \(latency), timeout \(Self.milliseconds(supervisionTimeout)) ms"
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(microseconds(duration)) / 1000
    }

    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds.multipliedReportingOverflow(by: 1_000_000).overflow
            ? Int64.max : seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}

/// Connection parameters to ask for, when connecting or later (Core 5.4, Vol 3, Part C,
/// §9.3.9; Vol 4, Part E, §7.8.12 gives the ranges).
public struct ConnectionParameterRequest: Hashable, Sendable {
    /// The acceptable connection intervals (7.5 ms to 4 s); the controller picks one.
    public var interval: ClosedRange<Duration>
    /// How many connection events the peripheral may skip (0 to 499).
    public var latency: Int
    /// The supervision timeout (100 ms to 32 s), longer than (1 + latency) × the longest
    /// interval × 2.
    public var supervisionTimeout: Duration

    /// A request with every value given; the default asks for a 30 ms interval, no latency
    /// and a 2 s timeout.
    public init(
        interval: ClosedRange<Duration> = .milliseconds(30) ... .milliseconds(30), latency: Int = 0,
        supervisionTimeout: Duration = .seconds(2)
    ) {
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }

    /// The shortest interval the specification allows, for the most throughput.
    public static let fast = ConnectionParameterRequest(interval: .microseconds(7500) ... .microseconds(7500))

    /// The request in the controller's units, checked against §7.8.12.
    /// - Throws: ``BLEError/invalidParameters(_:)`` naming the value out of range.
    func hciParameters() throws(BLEError) -> HCI.LEConnectionParameters {
        let minimum = ConnectionParameters.microseconds(interval.lowerBound)
        let maximum = ConnectionParameters.microseconds(interval.upperBound)
        let timeout = ConnectionParameters.microseconds(supervisionTimeout)
        guard minimum >= 7500, maximum <= 4_000_000 else {
            throw .invalidParameters("the connection interval must be 7.5 ms to 4 s")
        }
        guard (0...499).contains(latency) else { throw .invalidParameters("the latency must be 0 to 499 connection events") }
        guard timeout >= 100_000, timeout <= 32_000_000 else {
            throw .invalidParameters("the supervision timeout must be 100 ms to 32 s")
        }
        // Units of 1.25 ms for the interval (the shortest rounded up, the longest down, so
        // both stay inside the range asked for) and 10 ms for the timeout.
        let intervalMin = UInt16((minimum + 1249) / 1250)
        let intervalMax = UInt16(maximum / 1250)
        guard intervalMin <= intervalMax else {
            throw .invalidParameters("the connection interval range holds no multiple of 1.25 ms")
        }
        guard timeout > (1 + Int64(latency)) * Int64(intervalMax) * 1250 * 2 else {
            throw .invalidParameters("the supervision timeout must exceed (1 + latency) × the longest interval × 2")
        }
        return HCI.LEConnectionParameters(
            connectionIntervalMin: intervalMin, connectionIntervalMax: intervalMax, maxLatency: UInt16(latency),
            supervisionTimeout: UInt16(timeout / 10_000))
    }
}
