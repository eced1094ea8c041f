import BLEWire

/// Random static device addresses (Core 5.4, Vol 6, Part B, §1.3.2.1): the two most
/// significant bits are 11 and the other 46 bits are random, neither all zeros nor all ones.
public enum GAPRandomStaticAddress {
    /// The two top bits of a random static address.
    static let marker: UInt64 = 0b11 << 46
    /// The 46 random bits.
    static let randomBits: UInt64 = (1 << 46) - 1

    /// Whether `address` is a valid random static address.
    public static func isValid(_ address: BluetoothAddress) -> Bool {
        let value = address.value
        guard value >> 48 == 0, value & marker == marker else { return false }
        let random = value & randomBits
        return random != 0 && random != randomBits
    }

    /// A new random static address drawn from `generator` (a seeded one keeps a
    /// simulation deterministic).
    public static func generate(using generator: inout some RandomNumberGenerator) -> BluetoothAddress {
        while true {
            let random = generator.next() & randomBits
            if random != 0 && random != randomBits {
                return BluetoothAddress(marker | random, kind: .random)
            }
        }
    }
}

/// SplitMix64: a small seeded generator so GAP's random choices repeat for a seed
/// (DESIGN.md, determinism).
public struct GAPRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
