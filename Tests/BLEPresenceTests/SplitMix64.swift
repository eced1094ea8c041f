import Foundation

/// A seeded pseudo-random generator (SplitMix64, Steele, Lea and Flood 2014): the same seed gives
/// the same synthetic world on every machine and run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Standard normal by the Box–Muller transform.
    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 0x1p-53)
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
