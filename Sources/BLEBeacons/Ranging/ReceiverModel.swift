#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a receiver turns a beacon's filtered RSSI and its measured power (the RSSI expected
/// at 1 m) into a distance in metres: Core Location's `accuracy`, the AltBeacon library's
/// `distance`. Receivers differ in antenna and gain, so the curve is chosen per receiver.
public struct ReceiverModel: Hashable, Sendable, CustomStringConvertible {
    /// A distance curve.
    public enum Curve: Hashable, Sendable {
        /// The AltBeacon library's curve (`CurveFittedDistanceCalculator`): with
        /// r = rssi / measuredPower, distance = A · r^B + C when r ≥ 1 (at or beyond 1 m),
        /// and r^10 when r < 1. The coefficients are fitted per phone model; the r^10
        /// branch is not, and it falls away fast: 4 mm at a true 10 cm in a world with
        /// exponent 2.5 (see ``nexus5``). It is also discontinuous at r = 1 (1.0 m from
        /// below, A + C from above).
        case altBeacon(a: Double, b: Double, c: Double)
        /// Log-distance path loss anchored at the measured power:
        /// distance = 10^((measuredPower − rssi) / (10 · n)). Exact in a world whose path
        /// loss is log-distance with exponent n and whose beacons' measured power is their
        /// true RSSI at 1 m, such as ours (40 + 25 · log10(d) dB, n = 2.5).
        case logDistance(exponent: Double)
    }

    /// The receiver's name, e.g. `"Nexus 5"`.
    public var name: String
    /// The curve.
    public var curve: Curve

    /// A model from its name and curve.
    public init(name: String, curve: Curve) {
        self.name = name
        self.curve = curve
    }

    /// The AltBeacon library's default receiver, the Nexus 5, with its published
    /// coefficients A = 0.42093, B = 6.9476, C = 0.54992 (model-distance-calculations.json,
    /// marked default). The default model of ranging: the curve most beacon apps use.
    public static let nexus5 = ReceiverModel(name: "Nexus 5", curve: .altBeacon(a: 0.42093, b: 6.9476, c: 0.54992))

    /// Log-distance with exponent 2.5, the exponent of the simulated world's default path
    /// loss (40 + 25 · log10(d) dB): the receiver for which accuracy equals true distance
    /// in the world, before shadowing and fading.
    public static let simulatedWorld = ReceiverModel(name: "log-distance n=2.5", curve: .logDistance(exponent: 2.5))

    /// The estimated distance in metres, or `nil` when it cannot be estimated: an RSSI of
    /// 0 (Core Location's "no signal"), a measured power of 0 or above, a non-finite input,
    /// or a curve that yields no positive finite distance.
    public func distance(rssi: Double, measuredPower: Double) -> Double? {
        guard rssi.isFinite, measuredPower.isFinite, rssi != 0, measuredPower < 0 else { return nil }
        let distance: Double
        switch curve {
        case let .altBeacon(a, b, c):
            let ratio = rssi / measuredPower
            distance = ratio < 1 ? Self.power(ratio, 10) : a * Self.power(ratio, b) + c
        case let .logDistance(exponent):
            guard exponent > 0 else { return nil }
            distance = Self.power(10, (measuredPower - rssi) / (10 * exponent))
        }
        return distance.isFinite && distance > 0 ? distance : nil
    }

    /// The model's name.
    public var description: String { name }

    /// x^y for x > 0 (the C library's `pow`; Swift's standard library has none).
    static func power(_ base: Double, _ exponent: Double) -> Double {
        guard base > 0 else { return 0 }
        return pow(base, exponent)
    }
}
