import BLEWire

/// The key a central encrypts a link with (Core 5.4, Vol 4, Part E, §7.8.24): the LTK with
/// the EDIV and Rand that name it to the peripheral, and the security level the key was
/// made with, which the link has once encrypted (Vol 3, Part C, §10.2.1).
public struct GAPEncryptionKey: Hashable, Sendable {
    /// The Long Term Key.
    public var longTermKey: UInt128
    /// EDIV (zero for a key from LE Secure Connections, Vol 3, Part H, §2.4.4.1).
    public var ediv: UInt16
    /// Rand (zero for a key from LE Secure Connections).
    public var rand: UInt64
    /// The level the key was made with (unauthenticated for Just Works, authenticated for
    /// passkey or OOB, authenticated Secure Connections for an authenticated SC key).
    public var level: LinkSecurityLevel

    /// A key with every field given.
    public init(longTermKey: UInt128, ediv: UInt16 = 0, rand: UInt64 = 0, level: LinkSecurityLevel) {
        self.longTermKey = longTermKey
        self.ediv = ediv
        self.rand = rand
        self.level = level
    }
}

/// How a link is encrypted after Encryption Change or Encryption Key Refresh Complete
/// (Core 5.4, Vol 4, Part E, §7.7.8, §7.7.39).
public struct LinkEncryption: Hashable, Sendable {
    /// The level the key was made with, as its user said; ``LinkSecurityLevel/none`` when
    /// encryption is off.
    public var level: LinkSecurityLevel
    /// The key size in octets (7–16), 0 when encryption is off.
    public var keySize: Int

    /// Encryption with every field given.
    public init(level: LinkSecurityLevel, keySize: Int) {
        self.level = level
        self.keySize = keySize
    }

    /// Whether the link is encrypted.
    public var isEncrypted: Bool { level > .none }
}

/// The controller of a peripheral asks its host for the LTK a central named (LE Long Term
/// Key Request, Core 5.4, Vol 4, Part E, §7.7.65.5); the host answers with LE Long Term Key
/// Request Reply or Negative Reply (§7.8.25–7.8.26).
public struct LongTermKeyRequest: Hashable, Sendable {
    /// The connection.
    public var handle: UInt16
    /// The central's address as the connection reported it.
    public var peer: BluetoothAddress
    /// EDIV from the central's LL_ENC_REQ (zero with LE Secure Connections).
    public var ediv: UInt16
    /// Rand from the central's LL_ENC_REQ (zero with LE Secure Connections).
    public var rand: UInt64

    /// A request with every field given.
    public init(handle: UInt16, peer: BluetoothAddress, ediv: UInt16, rand: UInt64) {
        self.handle = handle
        self.peer = peer
        self.ediv = ediv
        self.rand = rand
    }
}

/// One link's encryption as ``GAPCore`` tracks it.
struct GAPLinkEncryptionState: Sendable {
    /// The encryption in force, `nil` while unencrypted.
    var current: LinkEncryption?
    /// The level of the key being started (central) or handed to the controller
    /// (peripheral), until the controller says how it went.
    var pendingLevel: LinkSecurityLevel?
    /// The central sent LE Enable Encryption and waits for its outcome.
    var starting = false
    /// A key exists for the peer: used on this link, or said by ``GAPCore/setHasKey(_:_:)``.
    var hasKey = false
    /// The link is encrypted but its key size is being read (Encryption Change v1): until
    /// then its level is not settled.
    var keySizePending = false
}
