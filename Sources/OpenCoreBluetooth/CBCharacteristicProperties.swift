/// What a client may do with a characteristic's value (Core Bluetooth's
/// `CBCharacteristicProperties`): the Characteristic Properties bits of the declaration
/// (Core 5.4, Vol 3, Part G, §3.3.1.1), with Apple's raw values, plus two Apple-only bits
/// for local characteristics whose notifications need an encrypted link.
public struct CBCharacteristicProperties: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    /// Properties from raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The value may be broadcast (Server Characteristic Configuration).
    public static let broadcast = CBCharacteristicProperties(rawValue: 0x01)
    /// The value may be read.
    public static let read = CBCharacteristicProperties(rawValue: 0x02)
    /// The value may be written without a response (Write Command).
    public static let writeWithoutResponse = CBCharacteristicProperties(rawValue: 0x04)
    /// The value may be written with a response (Write Request, long writes).
    public static let write = CBCharacteristicProperties(rawValue: 0x08)
    /// The value may be notified.
    public static let notify = CBCharacteristicProperties(rawValue: 0x10)
    /// The value may be indicated (notified with confirmation).
    public static let indicate = CBCharacteristicProperties(rawValue: 0x20)
    /// The value may be written with a signed Write Command.
    public static let authenticatedSignedWrites = CBCharacteristicProperties(rawValue: 0x40)
    /// A Characteristic Extended Properties descriptor says more.
    public static let extendedProperties = CBCharacteristicProperties(rawValue: 0x80)
    /// Local characteristics only: only trusted (bonded, encrypted) centrals may subscribe
    /// to notifications.
    public static let notifyEncryptionRequired = CBCharacteristicProperties(rawValue: 0x100)
    /// Local characteristics only: only trusted centrals may subscribe to indications.
    public static let indicateEncryptionRequired = CBCharacteristicProperties(rawValue: 0x200)
}

/// What a local attribute's value needs to be read or written (Core Bluetooth's
/// `CBAttributePermissions`; attribute permissions, Core 5.4, Vol 3, Part F, §3.2.5), with
/// Apple's raw values.
public struct CBAttributePermissions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    /// Permissions from raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The value may be read.
    public static let readable = CBAttributePermissions(rawValue: 0x01)
    /// The value may be written (Apple's spelling).
    public static let writeable = CBAttributePermissions(rawValue: 0x02)
    /// Reading needs an encrypted link (a trusted device).
    public static let readEncryptionRequired = CBAttributePermissions(rawValue: 0x04)
    /// Writing needs an encrypted link (a trusted device).
    public static let writeEncryptionRequired = CBAttributePermissions(rawValue: 0x08)
}

/// How ``CBPeripheral/writeValue(_:for:type:)`` writes (Core Bluetooth's
/// `CBCharacteristicWriteType`; Core 5.4, Vol 3, Part G, §4.9).
public enum CBCharacteristicWriteType: Int, Sendable {
    /// Write Characteristic Value (a Write Request, answered; a long write with Prepare /
    /// Execute Write when the value does not fit one request), then
    /// `peripheral(_:didWriteValueFor:error:)`.
    case withResponse = 0
    /// Write Without Response (a Write Command): no answer and no delegate call.
    case withoutResponse = 1
}
