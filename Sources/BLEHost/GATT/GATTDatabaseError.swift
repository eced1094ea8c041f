import BLEWire

/// Why service definitions cannot become a ``GATTDatabase``.
public enum GATTDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A service includes a UUID that no service of the database has (Core 5.4, Vol 3,
    /// Part G, §3.2).
    case unknownIncludedService(BluetoothUUID, includedBy: BluetoothUUID)
    /// A service includes itself, which would make a circular reference (§3.2).
    case serviceIncludesItself(BluetoothUUID)
    /// A stored value is longer than its maximum length or than 512 octets (Part F, §3.2.9).
    case valueTooLong(BluetoothUUID, length: Int, maximum: Int)
    /// A characteristic's maximum length is negative or above 512 octets (Part F, §3.2.9).
    case invalidMaximumLength(BluetoothUUID, Int)
    /// A characteristic's minimum key size is outside 7–16 octets (Part H, §2.3.4).
    case invalidMinimumKeySize(BluetoothUUID, Int)
    /// A descriptor the database adds itself (Extended Properties 0x2900, Client
    /// Characteristic Configuration 0x2902, Server Characteristic Configuration 0x2903)
    /// was declared by hand on a characteristic.
    case reservedDescriptor(BluetoothUUID, characteristic: BluetoothUUID)
    /// A service 0x1800 or 0x1801 was declared while the database adds its own.
    case duplicateStandardService(BluetoothUUID)
    /// The attributes need more handles than 0x0001–0xFFFF.
    case handleSpaceExhausted(attributeCount: Int)
    /// AES-CMAC failed while hashing the database (the crypto backend; it should not happen).
    case hashUnavailable

    /// One sentence saying what is wrong.
    public var description: String {
        switch self {
        case let .unknownIncludedService(uuid, service):
            return "Service \(service) includes \(uuid), which no service of the database has."
        case let .serviceIncludesItself(uuid):
            return "Service \(uuid) includes itself."
        case let .valueTooLong(uuid, length, maximum):
            return "The value of \(uuid) has \(length) octets, more than its maximum of \(maximum)."
        case let .invalidMaximumLength(uuid, length):
            return "Characteristic \(uuid) has maximum length \(length), outside 0–512."
        case let .invalidMinimumKeySize(uuid, size):
            return "Characteristic \(uuid) has minimum key size \(size), outside 7–16."
        case let .reservedDescriptor(uuid, characteristic):
            return "Descriptor \(uuid) of \(characteristic) is added by the database; do not declare it."
        case let .duplicateStandardService(uuid):
            return "Service \(uuid) is already added by the database."
        case let .handleSpaceExhausted(count):
            return "The database needs \(count) attributes, more than the 65535 handles."
        case .hashUnavailable:
            return "AES-CMAC failed while computing the Database Hash."
        }
    }
}
