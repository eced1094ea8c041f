import BLECrypto
import BLEHost

/// What this device brings to pairing (Core 5.4, Vol 3, Part H, §2.3): its input and
/// output, whether it bonds, what protection it insists on. Set with
/// ``BLEDevice/setPairing(options:handlers:)``; it applies to pairings in either role.
public struct PairingOptions: Hashable, Sendable {
    /// The device's input and output (Vol 3, Part H, §2.3.2), which with the peer's picks
    /// the association model (§2.3.5.1, Table 2.8).
    public enum IO: Hashable, Sendable {
        /// No display, no keyboard: Just Works only.
        case noInputNoOutput
        /// A display that can show a passkey.
        case displayOnly
        /// A keyboard that can type a passkey.
        case keyboardOnly
        /// A display and yes/no buttons: Numeric Comparison with Secure Connections.
        case displayYesNo
        /// A display and a keyboard: every model.
        case keyboardDisplay

        var smp: SMP.IOCapability {
            switch self {
            case .noInputNoOutput: return .noInputNoOutput
            case .displayOnly: return .displayOnly
            case .keyboardOnly: return .keyboardOnly
            case .displayYesNo: return .displayYesNo
            case .keyboardDisplay: return .keyboardDisplay
            }
        }
    }

    /// The input and output.
    public var io: IO
    /// Whether to bond: keep the keys so a later connection encrypts without pairing
    /// (Vol 3, Part C, §9.4.4); a bond is made only when both sides ask for it.
    public var bonding: Bool
    /// Whether to insist on MITM protection: a pairing the IO leaves to Just Works fails
    /// with Authentication Requirements (0x03) (Vol 3, Part H, §2.3.5.1).
    public var mitm: Bool
    /// Secure Connections Only mode (Vol 3, Part C, §10.2.4): legacy pairing is refused and
    /// keys must be 128 bits.
    public var secureConnectionsOnly: Bool
    /// Whether to pair the legacy way (LE legacy pairing, Vol 3, Part H, §2.3.5.2–2.3.5.5)
    /// by not offering Secure Connections; for peers and tests that need it.
    public var legacyOnly: Bool
    /// Secure Connections out-of-band data (Vol 3, Part H, §2.3.5.6.4), exchanged over
    /// another channel before pairing; `nil` for none.
    public var outOfBand: OutOfBandPairing?

    /// Options; by default a bonding Secure Connections device with no input or output.
    public init(io: IO = .noInputNoOutput, bonding: Bool = true, mitm: Bool = false, secureConnectionsOnly: Bool = false,
                legacyOnly: Bool = false, outOfBand: OutOfBandPairing? = nil) {
        self.io = io
        self.bonding = bonding
        self.mitm = mitm
        self.secureConnectionsOnly = secureConnectionsOnly
        self.legacyOnly = legacyOnly
        self.outOfBand = outOfBand
    }

    /// The host's configuration for these options.
    var configuration: SMPConfiguration {
        var configuration = SMPConfiguration(ioCapability: io.smp, bonding: bonding, mitmRequired: mitm,
                                             secureConnections: !legacyOnly, secureConnectionsOnly: secureConnectionsOnly)
        if let outOfBand {
            configuration.keyPair = outOfBand.local?.keyPair
            configuration.localOutOfBand = outOfBand.local?.data
            configuration.peerOutOfBand = outOfBand.peer
        }
        return configuration
    }
}

/// Out-of-band data for one Secure Connections pairing (Core 5.4, Vol 3, Part H,
/// §2.3.5.6.4): ours, given to the peer (by NFC, a QR code…), and the peer's, received from
/// it. Either side may be missing: OOB is used when at least one side received the other's.
public struct OutOfBandPairing: Hashable, Sendable {
    /// Our data and the key pair it commits to.
    public var local: LocalOutOfBandData?
    /// The peer's random value and confirm value, as received.
    public var peer: OutOfBandData?

    /// OOB data with both sides, either optional.
    public init(local: LocalOutOfBandData? = nil, peer: OutOfBandData? = nil) {
        self.local = local
        self.peer = peer
    }
}

/// This device's Secure Connections OOB data (Core 5.4, Vol 3, Part H, §2.3.5.6.4): a
/// fresh P-256 key pair, a random value r and the commitment C = f4(PKx, PKx, r, 0). Give
/// ``data`` to the peer; the pairing then uses the same key pair.
public struct LocalOutOfBandData: Hashable, Sendable {
    /// What the peer must receive: r and C.
    public let data: OutOfBandData
    let keyPair: BLECrypto.P256KeyPair

    /// New data with a fresh key pair and random value.
    /// - Throws: ``BLEError/procedureFailed(_:)`` if the cryptography backend fails.
    public static func generate() throws(BLEError) -> LocalOutOfBandData {
        var random = SMPSystemRandom()
        let keyPair = random.makeKeyPair()
        do {
            return LocalOutOfBandData(data: try SMPOutOfBandData.local(keyPair: keyPair, random: random.next128()), keyPair: keyPair)
        } catch {
            throw .procedureFailed("the OOB commitment could not be computed: \(error)")
        }
    }

    /// Equal when the data is (the data commits to the key pair).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.data == rhs.data }
    /// Hashes the data.
    public func hash(into hasher: inout Hasher) { hasher.combine(data) }
}

/// What a completed pairing, or an encryption with a stored bond's key, gave a link
/// (Core 5.4, Vol 3, Part C, §10.2.1).
public struct PairingResult: Hashable, Sendable {
    /// The link's security level now.
    public var level: SecurityLevel
    /// The encryption key size in octets, 7–16.
    public var keySize: Int
    /// Whether the keys are kept as a bond (both sides bonded).
    public var bonded: Bool
    /// The association model used (Vol 3, Part H, §2.3.5.1); `nil` when the link was
    /// encrypted with a stored bond's key rather than paired.
    public var method: PairingMethod?
    /// Whether LE Secure Connections made the key.
    public var secureConnections: Bool

    /// A result with every field.
    public init(level: SecurityLevel, keySize: Int, bonded: Bool, method: PairingMethod?, secureConnections: Bool) {
        self.level = level
        self.keySize = keySize
        self.bonded = bonded
        self.method = method
        self.secureConnections = secureConnections
    }

    init(_ result: SMPPairingResult) {
        self.init(level: result.level, keySize: Int(result.keySize), bonded: result.bonded, method: PairingMethod(result.method),
                  secureConnections: result.secureConnections)
    }
}
