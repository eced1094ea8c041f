import BLEWire

/// The Characteristic Properties bit field of a characteristic declaration (Core 5.4,
/// Vol 3, Part G, §3.3.1.1, Table 3.5): what a client may do with the value.
public struct GATTCharacteristicProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    /// Properties from the declaration's octet.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The value may be broadcast in advertising data (Server Characteristic Configuration).
    public static let broadcast = Self(rawValue: 0x01)
    /// The value may be read.
    public static let read = Self(rawValue: 0x02)
    /// The value may be written with Write Command.
    public static let writeWithoutResponse = Self(rawValue: 0x04)
    /// The value may be written with Write Request (and long writes).
    public static let write = Self(rawValue: 0x08)
    /// The value may be notified (a Client Characteristic Configuration descriptor follows).
    public static let notify = Self(rawValue: 0x10)
    /// The value may be indicated (a Client Characteristic Configuration descriptor follows).
    public static let indicate = Self(rawValue: 0x20)
    /// The value may be written with Signed Write Command.
    public static let authenticatedSignedWrites = Self(rawValue: 0x40)
    /// A Characteristic Extended Properties descriptor says more.
    public static let extendedProperties = Self(rawValue: 0x80)
}

/// The Characteristic Extended Properties descriptor's bits (Core 5.4, Vol 3, Part G,
/// §3.3.3.1, Table 3.11).
public struct GATTExtendedProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    /// Extended properties from the descriptor's value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The value may be written with reliable writes (Prepare/Execute with verification).
    public static let reliableWrite = Self(rawValue: 0x0001)
    /// The Characteristic User Description descriptor may be written.
    public static let writableAuxiliaries = Self(rawValue: 0x0002)
}

/// What a client needs to access an attribute (Core 5.4, Vol 3, Part F, §3.2.5: access,
/// encryption, authentication and authorization permissions; Part G, §8.1 for the errors a
/// server answers when they are not met). Not sent over the air; the server checks them.
public struct GATTPermissions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    /// Permissions from raw bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The value may be read at all (else Read Not Permitted, 0x02); a read condition
    /// alone (e.g. ``readEncryptionRequired``) allows reading too, under that condition.
    public static let readable = Self(rawValue: 0x0001)
    /// The value may be written at all (else Write Not Permitted, 0x03); a write condition
    /// alone allows writing too, under that condition.
    public static let writeable = Self(rawValue: 0x0002)
    /// Reading needs an encrypted link (else Insufficient Encryption, 0x0F, or
    /// Insufficient Authentication, 0x05, when the link is not encrypted and no key exists).
    public static let readEncryptionRequired = Self(rawValue: 0x0004)
    /// Writing needs an encrypted link.
    public static let writeEncryptionRequired = Self(rawValue: 0x0008)
    /// Reading needs an authenticated (MITM-protected) key (else Insufficient Authentication).
    public static let readAuthenticationRequired = Self(rawValue: 0x0010)
    /// Writing needs an authenticated key.
    public static let writeAuthenticationRequired = Self(rawValue: 0x0020)
    /// Reading is authorized by the app (else Insufficient Authorization, 0x08).
    public static let readAuthorizationRequired = Self(rawValue: 0x0040)
    /// Writing is authorized by the app.
    public static let writeAuthorizationRequired = Self(rawValue: 0x0080)

    /// Readable and writeable, no security.
    public static let readWrite: Self = [.readable, .writeable]

    /// The conditions on reading: encryption, authentication, authorization.
    public static let readRequirements: Self = [.readEncryptionRequired, .readAuthenticationRequired, .readAuthorizationRequired]
    /// The conditions on writing: encryption, authentication, authorization.
    public static let writeRequirements: Self = [.writeEncryptionRequired, .writeAuthenticationRequired, .writeAuthorizationRequired]

    /// Whether the value may be read at all, once the read conditions are met: with
    /// ``readable``, or with any read condition alone. A condition on reading says the value
    /// is read under it (Core 5.4, Vol 3, Part F, §3.2.5 combines access with security), and
    /// Apple's `CBAttributePermissions.readEncryptionRequired` alone is how Core Bluetooth's
    /// programming guide declares a value only a trusted device may read.
    public var allowsReading: Bool { contains(.readable) || !isDisjoint(with: Self.readRequirements) }

    /// Whether the value may be written at all, once the write conditions are met: with
    /// ``writeable``, or with any write condition alone (as ``allowsReading``).
    public var allowsWriting: Bool { contains(.writeable) || !isDisjoint(with: Self.writeRequirements) }
}
