import BLEHost

/// How a link's security level is named in the front door (Core 5.4, Vol 3, Part C,
/// §10.2.1, LE security mode 1): `.none`, `.unauthenticated` (Just Works),
/// `.authenticated` (legacy passkey or OOB), `.authenticatedSecureConnections`.
public typealias SecurityLevel = LinkSecurityLevel

/// Secure Connections out-of-band data as the peer receives it: the random value r and the
/// confirm value C (Core 5.4, Vol 3, Part H, §2.3.5.6.4).
public typealias OutOfBandData = SMPOutOfBandData

/// The association model a pairing used (Core 5.4, Vol 3, Part H, §2.3.5.1), in the
/// central's and peripheral's terms.
public enum PairingMethod: Hashable, Sendable {
    /// Just Works: no user action, no MITM protection.
    case justWorks
    /// Numeric Comparison (Secure Connections only): both users confirmed a six-digit number.
    case numericComparison
    /// Passkey Entry with the central showing the passkey and the peripheral's user typing it.
    case passkeyCentralDisplays
    /// Passkey Entry with the peripheral showing the passkey and the central's user typing it.
    case passkeyPeripheralDisplays
    /// Passkey Entry with both users typing the same passkey (keyboards on both sides).
    case passkeyBothEnter
    /// Out of band: the authentication data came over another channel.
    case outOfBand

    /// Whether the model protects against a man in the middle (all but Just Works).
    public var isAuthenticated: Bool { self != .justWorks }

    init(_ method: SMPPairingMethod) {
        switch method {
        case .justWorks: self = .justWorks
        case .numericComparison: self = .numericComparison
        case .passkeyEntry(.initiatorDisplays): self = .passkeyCentralDisplays
        case .passkeyEntry(.responderDisplays): self = .passkeyPeripheralDisplays
        case .passkeyEntry(.bothEnter): self = .passkeyBothEnter
        case .outOfBand: self = .outOfBand
        }
    }
}
