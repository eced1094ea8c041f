import Foundation

/// The chance that a scanning phone hears an advertiser at least once within a window of
/// time (docs/map.md, "Probability of detection").
///
/// The model: the advertiser sends an advertising event every advInterval plus a
/// pseudo-random advDelay of 0–10 ms (Core 5.4, Vol 6, Part B, §4.4.2.2.1), so events are
/// on average `interval + 5 ms` apart. Each event carries the packet on channels 37, 38
/// and 39; a phone scanning continuously (window = interval) listens on one channel at a
/// time, so each event gives it one packet to catch — the discovery model of Kindt et al.,
/// "Neighbor Discovery Latency in BLE-Like Protocols" (IEEE TMC, 2018), with a 100 % scan
/// duty cycle. The world draws shadowing, fading and packet loss afresh for every packet
/// (a hash of the seed, the packet and the receiver), so the catches are independent, each
/// with probability p. A window of N seconds starting at a uniformly random phase holds
/// m = ⌊N/T⌋ events, or m + 1 with probability f = N/T − m, hence
///
///     P(N) = 1 − (1 − p)^m · (1 − f·p).
///
/// Collisions with other advertisers are not counted: they depend on who else transmits
/// at that moment, which a map of one time does not know.
public enum DetectionProbability {
    /// The mean advDelay in seconds: half of its 0–10 ms range.
    public static let meanAdvertisingDelaySeconds = 0.005

    /// The mean time between advertising events in seconds for an advertising interval in
    /// milliseconds.
    public static func meanEventSpacingSeconds(intervalMilliseconds: Double) -> Double {
        intervalMilliseconds / 1_000 + meanAdvertisingDelaySeconds
    }

    /// The probability of at least one catch within `seconds`, when events come every
    /// `eventSpacingSeconds` on average and each is caught with probability `perEvent`.
    /// - Returns: a probability from 0 to 1; 0 for a window or probability that is not positive.
    public static func within(_ seconds: Double, perEvent: Double, eventSpacingSeconds: Double) -> Double {
        let p = Swift.min(1, Swift.max(0, perEvent))
        guard seconds > 0, p > 0, eventSpacingSeconds > 0, seconds.isFinite else { return 0 }
        let events = seconds / eventSpacingSeconds
        let whole = events.rounded(.down)
        let fraction = events - whole
        let missed = pow(1 - p, whole) * (1 - fraction * p)
        return Swift.min(1, Swift.max(0, 1 - missed))
    }
}
