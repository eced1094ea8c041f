/// Smooths one beacon's RSSI samples into the value ranging turns into a distance and a
/// proximity. A value type fed samples with their times; it reads no clock.
public protocol RSSIFilter: Sendable {
    /// Takes one sample, in dBm, received at `time`.
    mutating func add(_ rssi: Double, at time: BeaconTime)
    /// The filtered RSSI at `time`, or `nil` when the filter holds no sample to go on.
    func value(at time: BeaconTime) -> Double?
}

/// A running average over a time window with outliers trimmed, the AltBeacon library's
/// default filter (its `RunningAverageRssiFilter`: 20 s and about 10 %).
///
/// Exactly which samples count: those received less than `window` before the time asked
/// about (`time − sample < window`). They are sorted by RSSI, the k = ⌊n × trimFraction⌋
/// weakest and the k strongest of the n samples are dropped, and the rest are averaged.
/// With the defaults, 10 samples a second for 20 s (n = 200) drop the 20 weakest and the 20
/// strongest; fewer than 10 samples drop none. (The AltBeacon library drops ⌊n/10⌋ + 1 at
/// each end once n > 2, so it averages only the median of three samples; here two or three
/// samples are averaged whole.) The average lags a moving receiver by about half the window.
public struct RunningAverageRSSIFilter: RSSIFilter, Hashable {
    /// How long a sample counts.
    public var window: Duration
    /// The fraction of samples dropped at each end, clamped to 0 ..< 0.5.
    public var trimFraction: Double
    private var samples: [Sample] = []

    private struct Sample: Hashable, Sendable {
        var time: BeaconTime
        var rssi: Double
    }

    /// A filter over `window` (default 20 s) trimming `trimFraction` (default 10 %) at each end.
    public init(window: Duration = .seconds(20), trimFraction: Double = 0.1) {
        self.window = window
        self.trimFraction = trimFraction
    }

    /// Takes a sample and forgets the samples that have left the window at `time`.
    public mutating func add(_ rssi: Double, at time: BeaconTime) {
        guard rssi.isFinite else { return }
        samples.append(Sample(time: time, rssi: rssi))
        let span = window.beaconMicroseconds
        if let firstKept = samples.firstIndex(where: { time &- $0.time < span }), firstKept > 0 {
            samples.removeFirst(firstKept)
        }
    }

    /// The trimmed mean of the samples in the window at `time`; `nil` when there are none.
    public func value(at time: BeaconTime) -> Double? {
        let span = window.beaconMicroseconds
        let values = samples.lazy.filter { time &- $0.time < span }.map(\.rssi).sorted()
        guard !values.isEmpty else { return nil }
        let fraction = trimFraction.isFinite ? min(max(trimFraction, 0), 0.499) : 0
        let trimmed = Int(Double(values.count) * fraction)
        let kept = values[trimmed ..< values.count - trimmed]
        return kept.reduce(0, +) / Double(kept.count)
    }

    /// Samples currently held (some may already be outside the window of a later time).
    public var sampleCount: Int { samples.count }
}

/// An auto-regressive moving average, the AltBeacon library's alternative filter (its
/// `ArmaRssiFilter`, coefficient 0.1): each sample moves the value by `coefficient` times
/// its difference from the value, `value ← value − c · (value − rssi)`; the first sample
/// sets the value. The smaller the coefficient, the smoother and slower. Unlike the
/// library, the value is kept as a real number rather than truncated to an integer after
/// every sample (which biases it towards zero by up to 1 dB). Time plays no part.
public struct ARMARSSIFilter: RSSIFilter, Hashable {
    /// The weight of each new sample, clamped to 0 < c ≤ 1.
    public var coefficient: Double
    private var current: Double?

    /// A filter moving `coefficient` (default 0.1) of the way to each sample.
    public init(coefficient: Double = 0.1) {
        self.coefficient = coefficient
    }

    /// Moves the value towards `rssi`.
    public mutating func add(_ rssi: Double, at time: BeaconTime) {
        guard rssi.isFinite else { return }
        guard let value = current else {
            current = rssi
            return
        }
        let weight = coefficient.isFinite ? min(max(coefficient, .leastNonzeroMagnitude), 1) : 1
        current = value - weight * (value - rssi)
    }

    /// The current value, whatever the time; `nil` before the first sample.
    public func value(at time: BeaconTime) -> Double? { current }
}

/// Which filter ranging gives each beacon.
public enum RSSIFilterConfiguration: Hashable, Sendable {
    /// ``RunningAverageRSSIFilter`` over `window`, trimming `trimFraction` at each end.
    case runningAverage(window: Duration, trimFraction: Double)
    /// ``ARMARSSIFilter`` with `coefficient`.
    case arma(coefficient: Double)

    /// The default: a running average over 20 s trimming 10 % at each end.
    public static let standard = RSSIFilterConfiguration.runningAverage(window: .seconds(20), trimFraction: 0.1)
    /// An ARMA filter with the AltBeacon library's coefficient, 0.1.
    public static let standardARMA = RSSIFilterConfiguration.arma(coefficient: 0.1)

    func makeFilter() -> ConfiguredRSSIFilter {
        switch self {
        case let .runningAverage(window, trimFraction):
            return .runningAverage(RunningAverageRSSIFilter(window: window, trimFraction: trimFraction))
        case let .arma(coefficient):
            return .arma(ARMARSSIFilter(coefficient: coefficient))
        }
    }
}

/// One of the two filters, without an existential.
enum ConfiguredRSSIFilter: Sendable {
    case runningAverage(RunningAverageRSSIFilter)
    case arma(ARMARSSIFilter)

    mutating func add(_ rssi: Double, at time: BeaconTime) {
        switch self {
        case var .runningAverage(filter):
            self = .arma(ARMARSSIFilter()) // drops the enum's reference so the samples are not copied
            filter.add(rssi, at: time)
            self = .runningAverage(filter)
        case var .arma(filter):
            filter.add(rssi, at: time)
            self = .arma(filter)
        }
    }

    func value(at time: BeaconTime) -> Double? {
        switch self {
        case let .runningAverage(filter): return filter.value(at: time)
        case let .arma(filter): return filter.value(at: time)
        }
    }
}
