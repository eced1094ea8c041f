import BLECrypto
import BLEWire

/// The side of pairing a device plays (Core 5.4, Vol 3, Part H, §2.1): the central
/// initiates, the peripheral responds.
public enum SMPRole: Hashable, Sendable {
    /// Central: sends Pairing Request, starts encryption.
    case initiator
    /// Peripheral: answers Pairing Request, may send Security Request.
    case responder
}

/// Who types and who shows the passkey in Passkey Entry (Core 5.4, Vol 3, Part H,
/// §2.3.5.1, Table 2.8).
public enum SMPPasskeyRoles: Hashable, Sendable {
    /// The initiator displays, the responder enters.
    case initiatorDisplays
    /// The responder displays, the initiator enters.
    case responderDisplays
    /// Both enter the same passkey (keyboard only on both sides).
    case bothEnter
}

/// The association model of a pairing (Core 5.4, Vol 3, Part H, §2.3.5.1).
public enum SMPPairingMethod: Hashable, Sendable {
    /// Just Works: no user interaction, no MITM protection.
    case justWorks
    /// Numeric Comparison (Secure Connections only): both users confirm a 6-digit number.
    case numericComparison
    /// Passkey Entry: a 6-digit passkey shown on one side and typed on the other.
    case passkeyEntry(SMPPasskeyRoles)
    /// Out of band: authentication data exchanged over another channel.
    case outOfBand

    /// Whether the model protects against a man in the middle (all but Just Works).
    public var isAuthenticated: Bool { self != .justWorks }
}

/// Keys one side distributed in phase 3 (Core 5.4, Vol 3, Part H, §3.6).
public struct SMPKeys: Hashable, Sendable {
    /// A legacy-pairing LTK with the EDIV and Rand that identify it (§3.6.2–§3.6.3).
    public struct LongTermKey: Hashable, Sendable {
        /// The Long Term Key.
        public var key: UInt128
        /// The Encrypted Diversifier.
        public var encryptedDiversifier: UInt16
        /// The 64-bit Rand.
        public var random: UInt64

        /// An LTK with its identification.
        public init(key: UInt128, encryptedDiversifier: UInt16, random: UInt64) {
            self.key = key
            self.encryptedDiversifier = encryptedDiversifier
            self.random = random
        }
    }

    /// LTK, EDIV and Rand (legacy pairing, EncKey).
    public var longTermKey: LongTermKey?
    /// IRK and identity address (IdKey).
    public var identity: SMPIdentity?
    /// CSRK (SignKey).
    public var signatureKey: UInt128?

    /// A key set; all keys absent by default.
    public init(longTermKey: LongTermKey? = nil, identity: SMPIdentity? = nil, signatureKey: UInt128? = nil) {
        self.longTermKey = longTermKey
        self.identity = identity
        self.signatureKey = signatureKey
    }
}

/// The outcome of a completed pairing, for the bond store and the link's security level.
public struct SMPPairingResult: Hashable, Sendable {
    /// The level the pairing's key provides (Core 5.4, Vol 3, Part C, §10.2.1).
    public var level: LinkSecurityLevel
    /// The negotiated encryption key size in octets (7–16).
    public var keySize: UInt8
    /// Whether both sides asked to bond, so the keys are to be stored.
    public var bonded: Bool
    /// Whether LE Secure Connections was used.
    public var secureConnections: Bool
    /// The association model used.
    public var method: SMPPairingMethod
    /// The Secure Connections LTK (f5), shared by both sides; `nil` for legacy pairing.
    public var secureConnectionsLongTermKey: UInt128?
    /// Keys the peer distributed.
    public var peerKeys: SMPKeys
    /// Keys we distributed.
    public var localKeys: SMPKeys

    /// A result with every field.
    public init(
        level: LinkSecurityLevel, keySize: UInt8, bonded: Bool, secureConnections: Bool, method: SMPPairingMethod,
        secureConnectionsLongTermKey: UInt128?, peerKeys: SMPKeys, localKeys: SMPKeys
    ) {
        self.level = level
        self.keySize = keySize
        self.bonded = bonded
        self.secureConnections = secureConnections
        self.method = method
        self.secureConnectionsLongTermKey = secureConnectionsLongTermKey
        self.peerKeys = peerKeys
        self.localKeys = localKeys
    }
}

/// Why a pairing ended without keys (Core 5.4, Vol 3, Part H, §3.5.5 and §3.4).
public enum SMPPairingFailure: Hashable, Sendable {
    /// We sent Pairing Failed with this reason.
    case sent(SMP.PairingFailedReason)
    /// The peer sent Pairing Failed with this reason.
    case received(SMP.PairingFailedReason)
    /// The 30-second SMP timer expired (§3.4): no more SMP on this link until reconnection.
    case timedOut

    /// The Pairing Failed reason, `nil` for a timeout.
    public var reason: SMP.PairingFailedReason? {
        switch self {
        case let .sent(reason), let .received(reason): return reason
        case .timedOut: return nil
        }
    }
}

/// What the pairing core asks of the layer around it.
public enum SMPOutput: Hashable, Sendable {
    /// Send this SMP PDU on the link's fixed channel 0x0006.
    case send([UInt8])
    /// Show this passkey (0–999999, six digits with leading zeros) to the user.
    case displayPasskey(UInt32)
    /// Ask the user for the passkey; answer with ``SMPPairing/passkeyEntered(_:at:)``.
    case requestPasskey
    /// Show this number for Numeric Comparison; answer with ``SMPPairing/numberConfirmed(_:at:)``.
    case confirmNumber(UInt32)
    /// Ask the user to tap Pair or Cancel for a Just Works pairing, which shows no number
    /// (``SMPConfiguration/confirmsJustWorks``); answer with ``SMPPairing/pairingConfirmed(_:at:)``.
    case confirmPairing
    /// Initiator: start link encryption with this key (Vol 4, Part E, §7.8.24); the STK of
    /// legacy pairing and the SC LTK use EDIV 0 and Rand 0.
    case startEncryption(ltk: UInt128, ediv: UInt16, rand: UInt64)
    /// Responder: answer the controller's LTK request (EDIV 0, Rand 0) with this key
    /// (Vol 4, Part E, §7.8.25); also in ``SMPPairing/pendingLTK``.
    case ltkReady(UInt128)
    /// The peer's phase 3 keys have all arrived.
    case keysDistributed(SMPKeys)
    /// Pairing succeeded.
    case completed(SMPPairingResult)
    /// Pairing failed; no key may be used or stored.
    case failed(SMPPairingFailure)
}

/// Where pairing draws its random values and key pairs, injectable so tests are
/// deterministic (Core 5.4, Vol 3, Part H, §2.3.5.6: nonces; §2.3.5.6.1: key pairs).
public protocol SMPRandomSource: Sendable {
    /// A uniformly random 128-bit value.
    mutating func next128() -> UInt128
    /// A fresh P-256 key pair.
    mutating func makeKeyPair() -> BLECrypto.P256KeyPair
}

/// The system's secure random source and freshly generated key pairs.
public struct SMPSystemRandom: SMPRandomSource {
    /// The system source.
    public init() {}

    /// 128 bits from `SystemRandomNumberGenerator`.
    public mutating func next128() -> UInt128 {
        var generator = SystemRandomNumberGenerator()
        return UInt128(generator.next() as UInt64) << 64 | UInt128(generator.next() as UInt64)
    }

    /// A key pair from swift-crypto's secure generator.
    public mutating func makeKeyPair() -> BLECrypto.P256KeyPair { BLECrypto.P256KeyPair() }
}
