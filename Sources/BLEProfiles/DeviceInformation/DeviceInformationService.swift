import BLEHost
import BLEWire

/// The Device Information Service (DIS 1.1, service 0x180A): read-only facts about the
/// device — who made it, which model, serial number, revisions, System ID and PnP ID. Every
/// characteristic is optional (DIS §3); the definition holds those that are set.
public struct DeviceInformationService: Hashable, Sendable {
    /// The Device Information Service's UUID.
    public static let uuid: BluetoothUUID = 0x180A

    /// The text characteristics of the service (GSS `utf8s` values, DIS §3.1–§3.7).
    public enum TextCharacteristic: CaseIterable, Hashable, Sendable {
        /// Manufacturer Name String (0x2A29, GSS §3.143).
        case manufacturerName
        /// Model Number String (0x2A24, GSS §3.152).
        case modelNumber
        /// Serial Number String (0x2A25, GSS §3.197).
        case serialNumber
        /// Hardware Revision String (0x2A27, GSS §3.118).
        case hardwareRevision
        /// Firmware Revision String (0x2A26, GSS §3.97).
        case firmwareRevision
        /// Software Revision String (0x2A28, GSS §3.204).
        case softwareRevision

        /// The characteristic's UUID.
        public var uuid: BluetoothUUID {
            switch self {
            case .manufacturerName: return 0x2A29
            case .modelNumber: return 0x2A24
            case .serialNumber: return 0x2A25
            case .hardwareRevision: return 0x2A27
            case .firmwareRevision: return 0x2A26
            case .softwareRevision: return 0x2A28
            }
        }
    }

    /// Manufacturer Name String.
    public var manufacturerName: String?
    /// Model Number String.
    public var modelNumber: String?
    /// Serial Number String.
    public var serialNumber: String?
    /// Hardware Revision String.
    public var hardwareRevision: String?
    /// Firmware Revision String.
    public var firmwareRevision: String?
    /// Software Revision String.
    public var softwareRevision: String?
    /// System ID.
    public var systemID: SystemID?
    /// PnP ID.
    public var pnpID: PnPID?

    /// A Device Information Service with the given facts; unset ones are left out.
    public init(manufacturerName: String? = nil, modelNumber: String? = nil, serialNumber: String? = nil,
                hardwareRevision: String? = nil, firmwareRevision: String? = nil, softwareRevision: String? = nil,
                systemID: SystemID? = nil, pnpID: PnPID? = nil) {
        self.manufacturerName = manufacturerName
        self.modelNumber = modelNumber
        self.serialNumber = serialNumber
        self.hardwareRevision = hardwareRevision
        self.firmwareRevision = firmwareRevision
        self.softwareRevision = softwareRevision
        self.systemID = systemID
        self.pnpID = pnpID
    }

    /// The text of one characteristic.
    public subscript(text characteristic: TextCharacteristic) -> String? {
        get {
            switch characteristic {
            case .manufacturerName: return manufacturerName
            case .modelNumber: return modelNumber
            case .serialNumber: return serialNumber
            case .hardwareRevision: return hardwareRevision
            case .firmwareRevision: return firmwareRevision
            case .softwareRevision: return softwareRevision
            }
        }
        set {
            switch characteristic {
            case .manufacturerName: manufacturerName = newValue
            case .modelNumber: modelNumber = newValue
            case .serialNumber: serialNumber = newValue
            case .hardwareRevision: hardwareRevision = newValue
            case .firmwareRevision: firmwareRevision = newValue
            case .softwareRevision: softwareRevision = newValue
            }
        }
    }

    /// Encodes a string characteristic: its UTF-8 octets, no terminator (GSS §2.4, `utf8s`).
    public static func encodeText(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Decodes a string characteristic, refusing ill-formed UTF-8.
    public static func decodeText(_ bytes: [UInt8]) throws(WireError) -> String {
        try ProfileDecoding.utf8String(bytes[...], field: "DeviceInformation.text")
    }

    /// The service read back by a client: each value keyed by its characteristic's UUID;
    /// unknown UUIDs are ignored, a malformed value throws.
    public init(values: [BluetoothUUID: [UInt8]]) throws(WireError) {
        self.init()
        for characteristic in TextCharacteristic.allCases {
            if let bytes = values[characteristic.uuid] { self[text: characteristic] = try Self.decodeText(bytes) }
        }
        if let bytes = values[SystemID.uuid] { systemID = try SystemID(decoding: bytes) }
        if let bytes = values[PnPID.uuid] { pnpID = try PnPID(decoding: bytes) }
    }

    /// The service: one readable characteristic with a stored value for each fact that is
    /// set, in the order of DIS §3.
    public var definition: GATTServiceDefinition {
        var characteristics: [GATTCharacteristicDefinition] = []
        func add(_ uuid: BluetoothUUID, _ value: [UInt8]) {
            characteristics.append(GATTCharacteristicDefinition(uuid: uuid, properties: .read, permissions: .readable,
                                                                value: .stored(value)))
        }
        for characteristic in TextCharacteristic.allCases {
            if let text = self[text: characteristic] { add(characteristic.uuid, Self.encodeText(text)) }
        }
        if let systemID { add(SystemID.uuid, systemID.encoded()) }
        if let pnpID { add(PnPID.uuid, pnpID.encoded()) }
        return GATTServiceDefinition(uuid: Self.uuid, characteristics: characteristics)
    }
}
