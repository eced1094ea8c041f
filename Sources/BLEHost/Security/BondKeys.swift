/// A Long Term Key with the values that identify it in an LE legacy bond (Core 5.4, Vol 3,
/// Part H, §3.6.2 Encryption Information, §3.6.3 Central Identification): the key, the
/// 16-bit Encrypted Diversifier and the 64-bit random number the central quotes when it
/// starts encryption (Vol 4, Part E, §7.8.24). For an LE Secure Connections key EDIV and
/// Rand are zero (Vol 3, Part H, §2.4.4).
public struct BondLongTermKey: Hashable, Sendable {
    /// The key, as the specification writes a 128-bit number (BLECrypto's convention).
    public var key: UInt128
    /// EDIV, the Encrypted Diversifier.
    public var ediv: UInt16
    /// Rand, the 64-bit random number.
    public var rand: UInt64

    /// A key with its diversifier and random number.
    public init(key: UInt128, ediv: UInt16 = 0, rand: UInt64 = 0) {
        self.key = key
        self.ediv = ediv
        self.rand = rand
    }
}

/// A Connection Signature Resolving Key with the counter of the last signed write it
/// covered (Core 5.4, Vol 3, Part H, §2.4.2.2, §3.6.6; Vol 3, Part C, §10.4): a signed
/// write with a counter below the stored one is a replay.
public struct BondSigningKey: Hashable, Sendable {
    /// The CSRK.
    public var key: UInt128
    /// The SignCounter: for the peer's key the next counter accepted (a lower one is a
    /// replay), for ours the next counter to use; 0 for a new key.
    public var signCounter: UInt32

    /// A key with its counter.
    public init(key: UInt128, signCounter: UInt32 = 0) {
        self.key = key
        self.signCounter = signCounter
    }
}

/// The keys one side distributed in the Transport Specific Key Distribution phase of
/// pairing (Core 5.4, Vol 3, Part H, §3.6.1): an LTK (legacy pairing only; Secure
/// Connections derives one key both sides share), an IRK and a CSRK, each optional.
public struct BondKeys: Hashable, Sendable {
    /// The legacy LTK with its EDIV and Rand (Encryption Information + Central Identification).
    public var longTermKey: BondLongTermKey?
    /// The Identity Resolving Key (Identity Information), which resolves that side's
    /// resolvable private addresses (Vol 6, Part B, §1.3.2.3).
    public var identityResolvingKey: UInt128?
    /// The CSRK (Signing Information) with its sign counter.
    public var signingKey: BondSigningKey?

    /// Keys with every field, all absent by default.
    public init(longTermKey: BondLongTermKey? = nil, identityResolvingKey: UInt128? = nil,
                signingKey: BondSigningKey? = nil) {
        self.longTermKey = longTermKey
        self.identityResolvingKey = identityResolvingKey
        self.signingKey = signingKey
    }

    /// Whether no key is present.
    public var isEmpty: Bool { longTermKey == nil && identityResolvingKey == nil && signingKey == nil }
}
