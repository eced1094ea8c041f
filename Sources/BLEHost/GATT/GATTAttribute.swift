import BLEWire

/// One attribute of a ``GATTDatabase`` (Core 5.4, Vol 3, Part F, §3.2): a handle, a type,
/// permissions and a value, plus what the attribute is in the GATT hierarchy (Part G, §3),
/// which decides how the server answers for it.
public struct GATTAttribute: Hashable, Sendable {
    /// What an attribute is in the GATT hierarchy.
    public enum Role: Hashable, Sendable {
        /// A «Primary Service» or «Secondary Service» declaration (Part G, §3.1); the group
        /// ends at `endHandle`.
        case serviceDeclaration(isPrimary: Bool, endHandle: ATT.Handle)
        /// An «Include» declaration (Part G, §3.2).
        case includeDeclaration
        /// A «Characteristic» declaration (Part G, §3.3.1); the characteristic's
        /// attributes run to `endHandle`.
        case characteristicDeclaration(valueHandle: ATT.Handle, endHandle: ATT.Handle)
        /// A Characteristic Value declaration (Part G, §3.3.2).
        case characteristicValue(properties: GATTCharacteristicProperties)
        /// A Client Characteristic Configuration descriptor (Part G, §3.3.3.3): its value is
        /// kept per client by the server.
        case clientCharacteristicConfiguration(valueHandle: ATT.Handle, properties: GATTCharacteristicProperties)
        /// A Server Characteristic Configuration descriptor (Part G, §3.3.3.4): one value
        /// for all clients.
        case serverCharacteristicConfiguration(valueHandle: ATT.Handle)
        /// A Characteristic Extended Properties descriptor (Part G, §3.3.3.1).
        case extendedProperties
        /// The Client Supported Features characteristic value (Part G, §7.2): kept per
        /// client by the server.
        case clientSupportedFeatures
        /// Any other descriptor (User Description, Presentation Format, app-defined).
        case descriptor
    }

    /// The handle, from 1 in definition order, without gaps.
    public let handle: ATT.Handle
    /// The type, in the width it is sent in: 16-bit when the UUID has a 16-bit alias,
    /// else 128-bit (ATT has no 32-bit form; Part F, §3.2.1).
    public let type: BluetoothUUID
    /// What it is in the GATT hierarchy.
    public let role: Role
    /// What a client needs to read or write it.
    public let permissions: GATTPermissions
    /// The smallest encryption key size an access that needs encryption accepts.
    public let minimumKeySize: Int
    /// The longest value a write may leave.
    public let maximumLength: Int
    /// The value: held by the server (declarations, stored values; the initial value of
    /// per-client descriptors) or answered by the app.
    public internal(set) var value: GATTValue

    /// Whether the value has a fixed length defined by GATT (declarations and the
    /// configuration descriptors), so Read Blob at a non-zero offset answers Attribute
    /// Not Long (Part F, §3.4.4.5).
    public var isFixedLength: Bool {
        switch role {
        case .characteristicValue, .descriptor, .clientSupportedFeatures: return false
        default: return true
        }
    }

    /// Whether the attribute is a «Primary Service» or «Secondary Service» declaration.
    public var isServiceDeclaration: Bool {
        if case .serviceDeclaration = role { return true }
        return false
    }

    /// The handle of the last attribute of the group this attribute starts (Part F,
    /// §3.4.3.4): the service's or characteristic's last handle, else its own handle.
    public var groupEndHandle: ATT.Handle {
        switch role {
        case let .serviceDeclaration(_, end), let .characteristicDeclaration(_, end): return end
        default: return handle
        }
    }
}

extension BluetoothUUID {
    /// The same UUID in the width ATT sends it in: 16 bits when it has a 16-bit alias, else
    /// 128 (Core 5.4, Vol 3, Part F, §3.2.1: 32-bit UUIDs travel as 128-bit ones).
    var attributeForm: BluetoothUUID {
        if let short = uuid16 { return BluetoothUUID(short) }
        return BluetoothUUID(uuid128: value)
    }

    /// The octets of ``attributeForm``, little-endian: 2 or 16.
    var attributeOctets: [UInt8] {
        var writer = ByteWriter(capacity: 16)
        attributeForm.encode(to: &writer)
        return writer.bytes
    }
}

/// The attribute types GATT defines (Core 5.4, Vol 3, Part G, §3 and Assigned Numbers).
enum GATTServerUUID {
    static let primaryService = BluetoothUUID(0x2800)
    static let secondaryService = BluetoothUUID(0x2801)
    static let include = BluetoothUUID(0x2802)
    static let characteristic = BluetoothUUID(0x2803)
    static let extendedProperties = BluetoothUUID(0x2900)
    static let userDescription = BluetoothUUID(0x2901)
    static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    static let serverCharacteristicConfiguration = BluetoothUUID(0x2903)
    static let presentationFormat = BluetoothUUID(0x2904)
    static let aggregateFormat = BluetoothUUID(0x2905)
    static let genericAccessService = BluetoothUUID(0x1800)
    static let genericAttributeService = BluetoothUUID(0x1801)
    static let deviceName = BluetoothUUID(0x2A00)
    static let appearance = BluetoothUUID(0x2A01)
    static let serviceChanged = BluetoothUUID(0x2A05)
    static let clientSupportedFeatures = BluetoothUUID(0x2B29)
    static let databaseHash = BluetoothUUID(0x2B2A)
}
