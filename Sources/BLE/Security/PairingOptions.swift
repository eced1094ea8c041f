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
    /// Out-of-band data exchanged over another channel before pairing (NFC, a QR code):
    /// Secure Connections r and C (Vol 3, Part H, §2.3.5.6.4) and the legacy Temporary Key
    /// (§2.3.5.4); `nil` for none. Without ``OutOfBandPairing/local`` the data of
    /// ``BLEDevice/makeOutOfBandData()`` is ours.
    public var outOfBand: OutOfBandPairing?
    /// Whether the user taps Pair or Cancel before a Just Works pairing goes on
    /// (``PairingHandlers/confirmPairing``), as iOS's pairing request alert asks even when
    /// there is no number to compare; `false` (the default) goes on without asking.
    public var confirmsJustWorks = false

    /// The Secure Connections OOB data received from the peer (r and C): a shorthand for
    /// ``outOfBand``'s ``OutOfBandPairing/peer``. Holding it makes the pairing OOB (§2.3.5.1).
    public var peerOutOfBand: OutOfBandData? {
        get { outOfBand?.peer }
        set { outOfBand = OutOfBandPairing(local: outOfBand?.local, peer: newValue, temporaryKey: outOfBand?.temporaryKey) }
    }

    /// The LE legacy Temporary Key both sides received out of band: a shorthand for
    /// ``outOfBand``'s ``OutOfBandPairing/temporaryKey``. Legacy pairing is OOB only when
    /// both sides hold it (§2.3.5.1).
    public var legacyOutOfBandKey: UInt128? {
        get { outOfBand?.temporaryKey }
        set { outOfBand = OutOfBandPairing(local: outOfBand?.local, peer: outOfBand?.peer, temporaryKey: newValue) }
    }

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

    /// The host's configuration for these options; `kept` is the device's own OOB data
    /// (``BLEDevice/makeOutOfBandData()``), used when ``outOfBand`` names none. The key pair
    /// pairing uses is the one our OOB data commits to (§2.3.5.6.4).
    func configuration(keptOutOfBand kept: LocalOutOfBandData? = nil) -> SMPConfiguration {
        var configuration = SMPConfiguration(ioCapability: io.smp, bonding: bonding, mitmRequired: mitm,
                                             secureConnections: !legacyOnly, secureConnectionsOnly: secureConnectionsOnly)
        let local = outOfBand?.local ?? kept
        configuration.keyPair = local?.keyPair
        configuration.localOutOfBand = local?.data
        configuration.peerOutOfBand = outOfBand?.peer
        configuration.legacyOutOfBandKey = outOfBand?.temporaryKey
        configuration.confirmsJustWorks = confirmsJustWorks
        return configuration
    }
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
