import BLECrypto

/// Pairing's random values from a seed: what a simulated host uses so that a run repeats
/// byte for byte (DESIGN.md, "Determinism, one clock"). Never for a real link: the nonces
/// and keys of Core 5.4, Vol 3, Part H, §2.3.5.6 must be unpredictable there.
public struct SMPSeededRandom: SMPRandomSource {
    private var generator: GAPRandom

    /// A source whose sequence is fixed by `seed`.
    public init(seed: UInt64) { generator = GAPRandom(seed: seed) }

    /// The next 128 bits of the sequence.
    public mutating func next128() -> UInt128 {
        UInt128(generator.next()) << 64 | UInt128(generator.next())
    }

    /// A key pair whose private key is the next 256 bits of the sequence (drawn again in the
    /// rare case they are not a valid P-256 scalar).
    public mutating func makeKeyPair() -> BLECrypto.P256KeyPair {
        while true {
            let key = BLECrypto.Value256(high: next128(), low: next128())
            if let pair = try? BLECrypto.P256KeyPair(privateKey: key) { return pair }
        }
    }

    /// A source for one pairing, seeded from this one: sessions on different links draw
    /// different values, and the same sessions in the same order draw the same ones.
    public mutating func split() -> SMPSeededRandom {
        SMPSeededRandom(seed: generator.next())
    }
}
