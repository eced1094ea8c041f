/// The RSSI samples one gateway heard of one identity within a sliding time window.
///
/// Samples arrive in time order; ``prune(before:)`` drops those that have left the window. The
/// window can summarise itself by any ``RSSIStatistic``.
public struct RSSIWindow: Hashable, Sendable {
    /// One reading.
    public struct Sample: Hashable, Sendable {
        /// Seconds.
        public var time: Double
        /// dBm.
        public var rssi: Int
    }

    /// Samples in arrival order, oldest first.
    public private(set) var samples: [Sample] = []
    /// The most samples kept: when full, the oldest is dropped (a bound on memory and work
    /// for a device that advertises very fast).
    public var capacity: Int

    /// An empty window keeping at most `capacity` samples.
    public init(capacity: Int = 200) {
        self.capacity = max(1, capacity)
    }

    /// Adds a sample, dropping the oldest when the window is full.
    public mutating func append(time: Double, rssi: Int) {
        samples.append(Sample(time: time, rssi: rssi))
        if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
    }

    /// Drops samples older than `time`.
    public mutating func prune(before time: Double) {
        let stale = samples.prefix { $0.time < time }.count
        if stale > 0 { samples.removeFirst(stale) }
    }

    /// Whether the window holds no sample.
    public var isEmpty: Bool { samples.isEmpty }

    /// The time of the newest sample, if any.
    public var lastTime: Double? { samples.last?.time }

    /// The window summarised by `statistic`, or `nil` when it is empty.
    public func value(_ statistic: RSSIStatistic) -> Double? {
        statistic.value(of: samples.map(\.rssi))
    }

    /// The samples from `time` on summarised by `statistic`, or `nil` when there are none.
    public func value(_ statistic: RSSIStatistic, since time: Double) -> Double? {
        statistic.value(of: samples.filter { $0.time >= time }.map(\.rssi))
    }
}

/// How a window of RSSI samples becomes one number (dBm).
public enum RSSIStatistic: Hashable, Sendable, Codable {
    /// The median (the mean of the two middle samples for an even count): what ESPresense filters
    /// with (see ``ESPresenseBaseline``).
    case median
    /// The arithmetic mean of all samples.
    case mean
    /// The mean of the strongest `fraction` of the samples (at least one). Fading and a body in
    /// the way only ever take signal away, so the strongest samples are the least disturbed
    /// estimate of the path loss; averaging several keeps one lucky sample from deciding.
    case meanOfStrongest(fraction: Double)

    /// The statistic of `values`, or `nil` when there are none.
    public func value(of values: [Int]) -> Double? {
        guard !values.isEmpty else { return nil }
        switch self {
        case .median:
            let sorted = values.sorted()
            let middle = sorted.count / 2
            if sorted.count % 2 == 1 { return Double(sorted[middle]) }
            return (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
        case .mean:
            return Double(values.reduce(0, +)) / Double(values.count)
        case let .meanOfStrongest(fraction):
            let sorted = values.sorted(by: >)
            let wanted = Double(sorted.count) * min(max(fraction, 0), 1)
            let count = min(sorted.count, max(1, Int(wanted.rounded(.up))))
            return Double(sorted.prefix(count).reduce(0, +)) / Double(count)
        }
    }
}
