import BLEWire

/// A GATT server's attribute table (Core 5.4, Vol 3, Part G, §3), built once from service
/// definitions: compact, stable handles from 1 in definition order, the GAP and GATT
/// services first, the Database Hash computed over the result (§7.3).
///
/// The structure never changes after it is built; only stored values do (through
/// ``GATTServer/setValue(_:for:)`` and client writes).
public struct GATTDatabase: Hashable, Sendable {
    /// What to put in the built-in GAP (0x1800) and GATT (0x1801) services.
    public struct Configuration: Hashable, Sendable {
        /// Whether the GAP and GATT services are added before the app's services.
        public var includesStandardServices: Bool
        /// The Device Name characteristic's value (Core 5.4, Vol 3, Part C, §12.1), UTF-8.
        public var deviceName: String
        /// Whether clients may write the Device Name (Part C, §12.1: optional).
        public var deviceNameIsWriteable: Bool
        /// The Appearance characteristic's value (Part C, §12.2; Assigned Numbers).
        public var appearance: UInt16

        /// A configuration; by default both services, a read-only name, appearance 0 (Unknown).
        public init(includesStandardServices: Bool = true, deviceName: String = "SwiftBLE",
                    deviceNameIsWriteable: Bool = false, appearance: UInt16 = 0) {
            self.includesStandardServices = includesStandardServices
            self.deviceName = deviceName
            self.deviceNameIsWriteable = deviceNameIsWriteable
            self.appearance = appearance
        }
    }

    /// A service as placed in the database.
    public struct Service: Hashable, Sendable {
        /// The service's type.
        public let uuid: BluetoothUUID
        /// Primary or secondary.
        public let isPrimary: Bool
        /// Its declaration's handle through its last attribute's handle.
        public let handles: ClosedRange<ATT.Handle>
    }

    /// A characteristic as placed in the database.
    public struct Characteristic: Hashable, Sendable {
        /// The characteristic's type.
        public let uuid: BluetoothUUID
        /// The type of the service it belongs to.
        public let serviceUUID: BluetoothUUID
        /// Its properties as declared (the Extended Properties bit set when the
        /// descriptor exists).
        public let properties: GATTCharacteristicProperties
        /// The declaration's handle.
        public let declarationHandle: ATT.Handle
        /// The value's handle: what notifications, reads and writes name.
        public let valueHandle: ATT.Handle
        /// The last handle of its definition (its last descriptor or its value).
        public let endHandle: ATT.Handle
        /// Its Client Characteristic Configuration descriptor, when it notifies or indicates.
        public let clientConfigurationHandle: ATT.Handle?
    }

    /// Every attribute, `attributes[i].handle == i + 1`.
    public internal(set) var attributes: [GATTAttribute]
    /// The services in handle order.
    public let services: [Service]
    /// The characteristics in handle order.
    public let characteristics: [Characteristic]
    /// The Database Hash (Core 5.4, Vol 3, Part G, §7.3.1): AES-CMAC with a zero key over
    /// the hashed attributes. The Database Hash characteristic sends it little-endian.
    public let databaseHash: UInt128
    /// The Device Name value's handle, when the GAP service is present.
    public let deviceNameHandle: ATT.Handle?
    /// The Appearance value's handle, when the GAP service is present.
    public let appearanceHandle: ATT.Handle?
    /// The Service Changed value's handle (indicate it to bonded clients when the database
    /// changes between connections), when the GATT service is present.
    public let serviceChangedHandle: ATT.Handle?
    /// The Client Supported Features value's handle, when the GATT service is present.
    public let clientSupportedFeaturesHandle: ATT.Handle?
    /// The Database Hash value's handle, when the GATT service is present.
    public let databaseHashHandle: ATT.Handle?

    /// The attribute at `handle`, or `nil` when no attribute has it.
    public func attribute(at handle: ATT.Handle) -> GATTAttribute? {
        let index = Int(handle) - 1
        return attributes.indices.contains(index) ? attributes[index] : nil
    }

    /// The characteristic whose value is at `valueHandle`.
    public func characteristic(valueHandle: ATT.Handle) -> Characteristic? {
        characteristics.first { $0.valueHandle == valueHandle }
    }

    /// The value handle of the first characteristic of type `uuid`, optionally only in
    /// services of type `service`.
    public func valueHandle(of uuid: BluetoothUUID, inService service: BluetoothUUID? = nil) -> ATT.Handle? {
        characteristics.first { $0.uuid == uuid && (service == nil || $0.serviceUUID == service) }?.valueHandle
    }

    /// The handle of the last attribute (0 for an empty database).
    public var lastHandle: ATT.Handle { ATT.Handle(truncatingIfNeeded: attributes.count) }

    /// The attributes whose handles fall in `range`, clamped to the database.
    func attributes(in range: ClosedRange<ATT.Handle>) -> ArraySlice<GATTAttribute> {
        let lower = max(Int(range.lowerBound), 1) - 1
        let upper = min(Int(range.upperBound), attributes.count)
        guard lower < upper else { return [] }
        return attributes[lower ..< upper]
    }

    /// Replaces a stored value; `false` when `handle` holds no stored value.
    mutating func replaceStoredValue(_ value: [UInt8], at handle: ATT.Handle) -> Bool {
        let index = Int(handle) - 1
        guard attributes.indices.contains(index), case .stored = attributes[index].value else { return false }
        attributes[index].value = .stored(value)
        return true
    }

    /// A database with no attributes at all, not even the GAP and GATT services: what a
    /// host serves only if the standard services could not be laid out.
    public static let empty = GATTDatabase(attributes: [], services: [], characteristics: [], databaseHash: 0, standardHandles: [:])

    init(attributes: [GATTAttribute], services: [Service], characteristics: [Characteristic],
         databaseHash: UInt128, standardHandles: [BluetoothUUID: ATT.Handle]) {
        self.attributes = attributes
        self.services = services
        self.characteristics = characteristics
        self.databaseHash = databaseHash
        deviceNameHandle = standardHandles[GATTServerUUID.deviceName]
        appearanceHandle = standardHandles[GATTServerUUID.appearance]
        serviceChangedHandle = standardHandles[GATTServerUUID.serviceChanged]
        clientSupportedFeaturesHandle = standardHandles[GATTServerUUID.clientSupportedFeatures]
        databaseHashHandle = standardHandles[GATTServerUUID.databaseHash]
    }
}
