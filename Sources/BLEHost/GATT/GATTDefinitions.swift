import BLEWire

/// Where an attribute's value comes from.
public enum GATTValue: Hashable, Sendable {
    /// A value the stack holds and answers itself; writes (if permitted) replace it.
    case stored([UInt8])
    /// A value the app answers: the server hands each read and write (with its offset) to
    /// the app and waits for its answer.
    case dynamic
}

/// A descriptor to put in a GATT database (Core 5.4, Vol 3, Part G, §3.3.3). The Client
/// Characteristic Configuration and Extended Properties descriptors are added by the
/// database itself from the characteristic's properties; do not declare them.
public struct GATTDescriptorDefinition: Hashable, Sendable {
    /// The descriptor's type.
    public var uuid: BluetoothUUID
    /// What a client needs to read or write it.
    public var permissions: GATTPermissions
    /// Its value.
    public var value: GATTValue

    /// A descriptor with every field; readable by default.
    public init(uuid: BluetoothUUID, permissions: GATTPermissions = .readable, value: GATTValue) {
        self.uuid = uuid
        self.permissions = permissions
        self.value = value
    }
}

/// A characteristic to put in a GATT database (Core 5.4, Vol 3, Part G, §3.3): a
/// declaration, a value attribute, and its descriptors.
public struct GATTCharacteristicDefinition: Hashable, Sendable {
    /// The characteristic's type.
    public var uuid: BluetoothUUID
    /// What the declaration advertises a client may do.
    public var properties: GATTCharacteristicProperties
    /// Bits of the Extended Properties descriptor, added when non-empty (and the
    /// `extendedProperties` property bit set by the database).
    public var extendedProperties: GATTExtendedProperties
    /// What a client needs to read or write the value.
    public var permissions: GATTPermissions
    /// The value: stored by the stack or answered by the app.
    public var value: GATTValue
    /// The longest value a write may leave (Core 5.4, Vol 3, Part F, §3.2.9: at most 512).
    public var maximumLength: Int
    /// The smallest encryption key size (7–16) an encrypted access needs, else
    /// Encryption Key Size Too Short (0x0C).
    public var minimumKeySize: Int
    /// Further descriptors (User Description, Presentation Format, app-defined ones).
    public var descriptors: [GATTDescriptorDefinition]
    /// What a client's link needs to subscribe, that is to write the Client Characteristic
    /// Configuration, beyond what reading the value needs (which subscribing always needs):
    /// ``GATTPermissions/writeEncryptionRequired`` or
    /// ``GATTPermissions/writeAuthenticationRequired``. Core Bluetooth's
    /// `notifyEncryptionRequired` and `indicateEncryptionRequired` properties are
    /// `writeEncryptionRequired` here: a value anyone may read that only a paired client
    /// may have notified. Other bits are ignored here.
    public var subscriptionPermissions: GATTPermissions

    /// A characteristic; readable-only stored values by default.
    public init(uuid: BluetoothUUID, properties: GATTCharacteristicProperties, extendedProperties: GATTExtendedProperties = [],
                permissions: GATTPermissions = .readable, value: GATTValue, maximumLength: Int = 512,
                minimumKeySize: Int = 7, descriptors: [GATTDescriptorDefinition] = [], subscriptionPermissions: GATTPermissions = []) {
        self.uuid = uuid
        self.properties = properties
        self.extendedProperties = extendedProperties
        self.permissions = permissions
        self.subscriptionPermissions = subscriptionPermissions
        self.value = value
        self.maximumLength = maximumLength
        self.minimumKeySize = minimumKeySize
        self.descriptors = descriptors
    }
}

/// A service to put in a GATT database (Core 5.4, Vol 3, Part G, §3.1).
public struct GATTServiceDefinition: Hashable, Sendable {
    /// The service's type.
    public var uuid: BluetoothUUID
    /// Primary (discoverable by Discover All Primary Services) or secondary (only included).
    public var isPrimary: Bool
    /// Services this one includes (§3.2), by UUID: each names the first service of that
    /// UUID in the same database, which must come earlier or later in the list.
    public var includes: [BluetoothUUID]
    /// The characteristics, in handle order.
    public var characteristics: [GATTCharacteristicDefinition]

    /// A service with every field; primary by default.
    public init(uuid: BluetoothUUID, isPrimary: Bool = true, includes: [BluetoothUUID] = [],
                characteristics: [GATTCharacteristicDefinition] = []) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.includes = includes
        self.characteristics = characteristics
    }
}
