import Foundation

/// The world's seeded random source: SplitMix64 (Steele, Lea and Flood, 2014). Besides the
/// sequential generator it offers a stateless hash, so a draw for "packet n from device a
/// at device b" depends only on the seed and those numbers, not on what else happened.
public struct WorldRandom: RandomNumberGenerator, Sendable {
    /// The generator's state.
    public private(set) var state: UInt64

    /// A generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's finaliser: a bijective scramble of 64 bits.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A hash of the seed and three keys, for stateless draws.
    public static func hash(seed: UInt64, _ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
        var h = mix(seed &+ 0x9E37_79B9_7F4A_7C15)
        h = mix(h ^ (a &* 0xD6E8_FEB8_6659_FD93))
        h = mix(h ^ (b &* 0xA076_1D64_78BD_642F))
        return mix(h ^ (c &* 0xE703_7ED1_A0B4_28DB))
    }

    /// A uniform value in the open interval (0, 1) from 64 random bits.
    public static func unit(_ bits: UInt64) -> Double {
        (Double(bits >> 11) + 0.5) / 9_007_199_254_740_992
    }

    /// A standard normal value from two sets of random bits (Box–Muller).
    public static func gaussian(_ bits1: UInt64, _ bits2: UInt64) -> Double {
        (-2 * log(unit(bits1))).squareRoot() * cos(2 * .pi * unit(bits2))
    }
}
