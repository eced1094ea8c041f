/// SplitMix64, seeded, so the generated tests are reproducible from their seed. (BLEWire's
/// test target has the same generator; test targets cannot share sources.)
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

    /// A random 128-bit value.
    mutating func uint128() -> UInt128 {
        UInt128(next()) << 64 | UInt128(next())
    }
}

/// Octets from hexadecimal text; spaces are ignored. Test fixtures only.
func octets(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count - 1, by: 2).compactMap { index in
        UInt8(String(digits[index ... index + 1]), radix: 16)
    }
}
