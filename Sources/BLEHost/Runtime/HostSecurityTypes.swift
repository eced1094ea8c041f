import BLEWire

/// The user side of pairing (Core 5.4, Vol 3, Part H, §2.3.5): shows a passkey, asks for
/// one, or asks to confirm a number. Each call may take as long as the user does, up to
/// SMP's 30-second timeout.
public protocol PairingAgent: Sendable {
    /// Shows `passkey` (six digits, leading zeros kept) for the peer's user to type.
    func displayPasskey(_ passkey: UInt32, on connection: UInt16) async
    /// Asks for the passkey the peer shows; `nil` cancels (Passkey Entry Failed, 0x01).
    func enterPasskey(on connection: UInt16) async -> UInt32?
    /// Asks whether `number` matches the peer's (Numeric Comparison); `false` fails the
    /// pairing with Numeric Comparison Failed (0x0C).
    func confirmNumber(_ number: UInt32, on connection: UInt16) async -> Bool
    /// Asks whether to go on with a Just Works pairing, which shows no number: the user's
    /// Pair (`true`) or Cancel (Unspecified Reason, 0x08). Asked only when the
    /// configuration says so (``SMPConfiguration/confirmsJustWorks``).
    func confirmPairing(on connection: UInt16) async -> Bool
}

extension PairingAgent {
    /// Accepts every Just Works pairing: an agent that shows no such dialog lets it go on.
    public func confirmPairing(on connection: UInt16) async -> Bool { true }
}

/// How a central answers a peripheral's Security Request (Vol 3, Part H, §2.4.6): with
/// a stored key when it has one for the peer, else by pairing.
public typealias BondedKeyLookup = @Sendable (_ peer: BluetoothAddress) async -> (ltk: UInt128, ediv: UInt16, rand: UInt64, level: LinkSecurityLevel)?

/// What pairing did on a link, for the layer that keeps bonds.
public enum HostSecurityEvent: Hashable, Sendable {
    /// Pairing completed: the link is encrypted and these keys were exchanged.
    case paired(connection: UInt16, peer: BluetoothAddress, SMPPairingResult)
    /// Pairing failed, with the reason sent or received.
    case pairingFailed(connection: UInt16, peer: BluetoothAddress, SMPPairingFailure)
}

/// Why ``Host/pair(_:)`` failed.
public enum HostPairingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Pairing failed with this reason (sent or received) or timed out.
    case failed(SMPPairingFailure)
    /// The peer failed recent attempts: wait before trying again (Vol 3, Part H, §2.3.6).
    case repeatedAttempts
    /// We asked a bonded central for security as peripheral and it answered by encrypting
    /// with the key it holds instead of pairing (§2.4.6): the link is secure at this level,
    /// and no pairing ran.
    case encryptedWithStoredKey(LinkEncryption)

    /// A sentence for logs.
    public var description: String {
        switch self {
        case let .failed(.sent(reason)): return "pairing failed: we sent \(reason)"
        case let .failed(.received(reason)): return "pairing failed: the peer sent \(reason)"
        case .failed(.timedOut): return "pairing timed out after 30 seconds"
        case .repeatedAttempts: return "pairing with this peer failed recently; wait before trying again"
        case let .encryptedWithStoredKey(encryption):
            return "the central encrypted with its stored key (level \(encryption.level.rawValue), \(encryption.keySize)-octet key) instead of pairing"
        }
    }
}

extension L2CAPOutput {
    /// Whether this is a PDU of the ATT or SMP fixed channel, which a link's security
    /// level governs.
    var isFixedChannelPDU: Bool {
        switch self {
        case .att, .smp: return true
        default: return false
        }
    }
}
