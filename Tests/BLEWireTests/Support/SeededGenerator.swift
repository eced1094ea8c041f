/// SplitMix64: a small, seeded random number generator so generated round-trip tests
/// are reproducible from their seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random octets.
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0 ..< count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }

    /// A random octet count in `range`, then that many octets.
    mutating func bytes(in range: ClosedRange<Int>) -> [UInt8] {
        bytes(Int.random(in: range, using: &self))
    }
}
