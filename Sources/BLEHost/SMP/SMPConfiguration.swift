import BLECrypto
import BLEWire

/// Out-of-band data of LE Secure Connections (Core 5.4, Vol 3, Part H, §2.3.5.6.4): a random
/// value `r` and the commitment `C = f4(PKx, PKx, r, 0)` to the sender's public key, passed
/// over another channel (NFC, a QR code) before pairing.
public struct SMPOutOfBandData: Hashable, Sendable {
    /// The random value r (ra or rb).
    public var random: UInt128
    /// The confirm value C (Ca or Cb).
    public var confirm: UInt128

    /// OOB data with both values given, e.g. as read from the peer.
    public init(random: UInt128, confirm: UInt128) {
        self.random = random
        self.confirm = confirm
    }

    /// This device's OOB data for `keyPair` (§2.3.5.6.4): `C = f4(PKx, PKx, r, 0)`. The
    /// pairing must then use the same key pair (``SMPConfiguration/keyPair``).
    ///
    /// - Throws: only ``BLECrypto/Error/backendFailure(_:)``, which cannot happen.
    public static func local(keyPair: BLECrypto.P256KeyPair, random: UInt128) throws(BLECrypto.Error) -> SMPOutOfBandData {
        SMPOutOfBandData(random: random, confirm: try BLECrypto.f4(u: keyPair.publicX, v: keyPair.publicX, x: random, z: 0))
    }
}

/// The identity keys this device hands out in phase 3 when IdKey is negotiated (Core 5.4,
/// Vol 3, Part H, §3.6.4–§3.6.5).
public struct SMPIdentity: Hashable, Sendable {
    /// Our Identity Resolving Key.
    public var identityResolvingKey: UInt128
    /// Our public or static random identity address.
    public var identityAddress: BluetoothAddress

    /// An identity with both fields.
    public init(identityResolvingKey: UInt128, identityAddress: BluetoothAddress) {
        self.identityResolvingKey = identityResolvingKey
        self.identityAddress = identityAddress
    }
}

/// What a device brings to pairing (Core 5.4, Vol 3, Part H, §2.3 and §3.5.1): its IO
/// capability, its requirements, its OOB data and the keys it wants exchanged.
public struct SMPConfiguration: Sendable {
    /// The device's input and output capabilities (§2.3.2), which select the association
    /// model with the peer's (§2.3.5.1).
    public var ioCapability: SMP.IOCapability
    /// Whether to ask for bonding: keys are exchanged and kept only when both sides bond.
    public var bonding: Bool
    /// Whether to require MITM protection: pairing fails with Authentication Requirements
    /// when the IO capabilities leave only Just Works (§2.3.5.1).
    public var mitmRequired: Bool
    /// Whether LE Secure Connections is supported (the SC bit of AuthReq).
    public var secureConnections: Bool
    /// Secure Connections Only mode (Vol 3, Part C, §10.2.4): legacy pairing is refused
    /// with Authentication Requirements (Part H, §3.5.5) and keys must be 128 bits.
    public var secureConnectionsOnly: Bool
    /// Whether pairing is accepted at all; a responder that does not answers Pairing Not
    /// Supported (§3.5.5).
    public var pairable: Bool
    /// The Temporary Key shared out of band for legacy pairing (§2.3.5.4); sets the OOB
    /// data flag when Secure Connections is not used.
    public var legacyOutOfBandKey: UInt128?
    /// Our Secure Connections OOB data, already given to the peer (needs ``keyPair``).
    public var localOutOfBand: SMPOutOfBandData?
    /// The peer's Secure Connections OOB data, received out of band; sets the OOB flag.
    public var peerOutOfBand: SMPOutOfBandData?
    /// The P-256 key pair to use; `nil` draws a fresh one from the random source. With
    /// ``localOutOfBand`` it is the pair that data commits to, used by OOB pairings only.
    public var keyPair: BLECrypto.P256KeyPair?
    /// The largest key size we support, 7–16 octets (§3.5.1).
    public var maximumKeySize: UInt8
    /// The smallest negotiated key size we accept; smaller fails with Encryption Key Size.
    public var minimumKeySize: UInt8
    /// Keys we want to distribute (only those we hold are offered: IdKey needs
    /// ``identity``, SignKey needs ``signatureKey``).
    public var localKeys: SMP.KeyDistribution
    /// Keys we want the peer to distribute.
    public var peerKeys: SMP.KeyDistribution
    /// Our IRK and identity address, sent when IdKey is negotiated.
    public var identity: SMPIdentity?
    /// Our CSRK, sent when SignKey is negotiated.
    public var signatureKey: UInt128?
    /// Whether our user must tap Pair (or Cancel) before a Just Works pairing goes on, as
    /// iOS asks with its pairing request alert: the pairing emits
    /// ``SMPOutput/confirmPairing`` and waits for ``SMPPairing/pairingConfirmed(_:at:)``.
    /// The specification leaves this to the device (Just Works shows the user nothing to
    /// compare, §2.3.5.2 and §2.3.5.6.2); `false` (the default) goes on without asking.
    public var confirmsJustWorks = false

    /// A configuration; the defaults describe a bonding Secure Connections device without IO.
    public init(
        ioCapability: SMP.IOCapability = .noInputNoOutput,
        bonding: Bool = true,
        mitmRequired: Bool = false,
        secureConnections: Bool = true,
        secureConnectionsOnly: Bool = false,
        pairable: Bool = true,
        legacyOutOfBandKey: UInt128? = nil,
        localOutOfBand: SMPOutOfBandData? = nil,
        peerOutOfBand: SMPOutOfBandData? = nil,
        keyPair: BLECrypto.P256KeyPair? = nil,
        maximumKeySize: UInt8 = 16,
        minimumKeySize: UInt8 = 7,
        localKeys: SMP.KeyDistribution = [.encryptionKey, .identityKey, .signingKey],
        peerKeys: SMP.KeyDistribution = [.encryptionKey, .identityKey, .signingKey],
        identity: SMPIdentity? = nil,
        signatureKey: UInt128? = nil
    ) {
        self.ioCapability = ioCapability
        self.bonding = bonding
        self.mitmRequired = mitmRequired
        self.secureConnections = secureConnections
        self.secureConnectionsOnly = secureConnectionsOnly
        self.pairable = pairable
        self.legacyOutOfBandKey = legacyOutOfBandKey
        self.localOutOfBand = localOutOfBand
        self.peerOutOfBand = peerOutOfBand
        self.keyPair = keyPair
        self.maximumKeySize = maximumKeySize
        self.minimumKeySize = minimumKeySize
        self.localKeys = localKeys
        self.peerKeys = peerKeys
        self.identity = identity
        self.signatureKey = signatureKey
    }

    /// Our AuthReq octet (§3.5.1): Bonding_Flags, MITM, SC; Keypress and CT2 stay clear
    /// (no keypress notifications, no BR/EDR key derivation).
    var authenticationRequirements: SMP.AuthenticationRequirements {
        var value: SMP.AuthenticationRequirements = []
        if bonding { value.insert(.bonding) }
        if mitmRequired { value.insert(.mitm) }
        if secureConnections || secureConnectionsOnly { value.insert(.secureConnections) }
        return value
    }

    /// The OOB data flag we send (§3.5.1): set when we hold OOB data from the peer for the
    /// kind of pairing that will run — the peer's (r, C) for Secure Connections, the TK for
    /// legacy. A TK alone must not claim Secure Connections data: the peer would then take
    /// its own r into its check value (§2.3.5.6.4) and the DHKey checks would fail.
    func oobFlag(secureConnections: Bool) -> SMP.OOBDataFlag {
        (secureConnections ? peerOutOfBand != nil : legacyOutOfBandKey != nil) ? .present : .notPresent
    }

    /// The keys we can actually send: EncKey is generated, the others must be held. Key
    /// distribution does not depend on bonding (§3.6.1; the §2.2.3 sample pairs without
    /// bonding yet distributes keys): without bonding the keys are simply not stored.
    var offeredKeys: SMP.KeyDistribution {
        var keys = localKeys.intersection([.encryptionKey, .identityKey, .signingKey])
        if identity == nil { keys.remove(.identityKey) }
        if signatureKey == nil { keys.remove(.signingKey) }
        return keys
    }

    /// The keys we ask the peer for.
    var requestedKeys: SMP.KeyDistribution {
        peerKeys.intersection([.encryptionKey, .identityKey, .signingKey])
    }

    /// The key size we accept at least: 16 in Secure Connections Only mode (Part C, §10.2.4).
    var effectiveMinimumKeySize: UInt8 {
        secureConnectionsOnly ? 16 : max(minimumKeySize, SMP.minimumEncryptionKeySize)
    }
}
