/// How near a ranged beacon is, in Core Location's four classes (`CLProximity`, same raw
/// values).
public enum BeaconProximity: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Not determined: not heard lately, or no usable signal; accuracy is -1.
    case unknown = 0
    /// Nearly touching the beacon.
    case immediate = 1
    /// Within a couple of metres.
    case near = 2
    /// Heard, but further.
    case far = 3

    /// The order ranging lists beacons in: immediate, near, far, then unknown.
    public var sortRank: Int {
        switch self {
        case .immediate: return 0
        case .near: return 1
        case .far: return 2
        case .unknown: return 3
        }
    }

    /// `unknown`, `immediate`, `near` or `far`.
    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .immediate: return "immediate"
        case .near: return "near"
        case .far: return "far"
        }
    }
}

/// Where proximity changes class, as margins of the filtered RSSI over the beacon's
/// measured power (its RSSI at 1 m), in dB.
///
/// Why margins and not the estimated distance: proximity must not depend on which distance
/// curve the receiver model uses, and the default curve (the AltBeacon library's) reports
/// 0.26 m at a true 50 cm and 4 mm at 10 cm, so no threshold on it makes "immediate" mean
/// "nearly touching" without looking arbitrary. A margin is what the receiver measures.
///
/// The defaults and what they mean under log-distance path loss with exponent n, where a
/// margin of m dB is the distance 10^(−m / (10 · n)):
///
/// | class | margin | n = 2.5 (our world) | n = 2 (free space) |
/// | --- | --- | --- | --- |
/// | immediate | ≥ +22.5 dB | ≤ 12.6 cm | ≤ 7.5 cm |
/// | near | ≥ −7.5 dB | ≤ 2.0 m | ≤ 2.4 m |
/// | far | below | beyond | beyond |
///
/// At the world's path loss (40 + 25 · log10(d) dB) with measured power −59 dBm the
/// margins at 5 cm, 10 cm, 50 cm, 1 m, 3 m, 10 m and 40 m are +32.5, +25, +7.5, 0, −11.9,
/// −25 and −40 dB: immediate, immediate, near, near, far, far, far.
public struct ProximityThresholds: Hashable, Sendable {
    /// Immediate when the filtered RSSI is at least this many dB above the measured power.
    public var immediateMargin: Double
    /// Near when it is at least this many dB above (negative: below) the measured power.
    public var nearMargin: Double

    /// Thresholds from their margins (defaults +22.5 dB and −7.5 dB).
    public init(immediateMargin: Double = 22.5, nearMargin: Double = -7.5) {
        self.immediateMargin = immediateMargin
        self.nearMargin = nearMargin
    }

    /// The class of a beacon heard at `rssi` whose RSSI at 1 m is `measuredPower`;
    /// unknown for a non-finite input or an RSSI of 0 (Core Location's "no signal").
    public func proximity(rssi: Double, measuredPower: Double) -> BeaconProximity {
        guard rssi.isFinite, measuredPower.isFinite, rssi != 0 else { return .unknown }
        let margin = rssi - measuredPower
        if margin >= immediateMargin { return .immediate }
        if margin >= nearMargin { return .near }
        return .far
    }
}
