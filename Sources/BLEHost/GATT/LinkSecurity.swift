/// How well a link is protected, which is what GATT permission checks compare against
/// (Core 5.4, Vol 3, Part C, §10.2.1: LE security mode 1, levels 1–4).
public enum LinkSecurityLevel: Int, Comparable, Hashable, Sendable, CaseIterable {
    /// Level 1: no encryption.
    case none = 1
    /// Level 2: encrypted with an unauthenticated key (Just Works).
    case unauthenticated = 2
    /// Level 3: encrypted with an authenticated key (passkey, OOB; legacy pairing).
    case authenticated = 3
    /// Level 4: encrypted with an authenticated LE Secure Connections key.
    case authenticatedSecureConnections = 4

    /// Orders by strength.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The security of one link as the server sees it when it checks a request.
public struct LinkSecurity: Hashable, Sendable {
    /// The level.
    public var level: LinkSecurityLevel
    /// The encryption key size in octets (7–16), 0 when the link is not encrypted.
    public var keySize: Int
    /// Whether a bond (a stored key) exists for the peer, which decides between
    /// Insufficient Encryption and Insufficient Authentication on an unencrypted link
    /// (Core 5.4, Vol 3, Part C, §10.3.1).
    public var hasKey: Bool

    /// Security with every field.
    public init(level: LinkSecurityLevel, keySize: Int = 0, hasKey: Bool = false) {
        self.level = level
        self.keySize = keySize
        self.hasKey = hasKey
    }

    /// An unencrypted link with no stored key: what every link is until it is encrypted.
    public static let unencrypted = LinkSecurity(level: .none)

    /// Whether the link is encrypted.
    public var isEncrypted: Bool { level > .none }
}
