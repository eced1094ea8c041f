import BLEHost
import BLEWire

/// Alert Level (GSS §3.9, characteristic 0x2A06), written by a client to make a device beep
/// or flash (Immediate Alert) or to say how loudly to alert when the link drops (Link Loss).
public enum AlertLevel: UInt8, CharacteristicValue, CaseIterable {
    /// The Alert Level characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A06

    /// 0: no alert.
    case noAlert = 0
    /// 1: mild alert.
    case mildAlert = 1
    /// 2: high alert.
    case highAlert = 2

    /// Decodes the one octet; 3–255 are reserved and refused.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "AlertLevel") { reader throws(WireError) in
            try ProfileDecoding.enumeration(&reader, "AlertLevel", AlertLevel.init(rawValue:))
        }
    }

    /// The one octet.
    public func encoded() -> [UInt8] { [rawValue] }

    /// Checks a client's write of an Alert Level: the level it asks for, or the error to
    /// answer — Invalid Attribute Value Length (0x0D) unless exactly one octet, and Out of
    /// Range (0xFF, Core Specification Supplement Part B §1.2) for a reserved level.
    public static func validateWrite(_ value: [UInt8]) -> Result<AlertLevel, ATT.ErrorCode> {
        guard value.count == 1 else { return .failure(.invalidAttributeValueLength) }
        guard let level = AlertLevel(rawValue: value[0]) else { return .failure(.outOfRange) }
        return .success(level)
    }

    /// The characteristic: `properties` and `permissions` as the service needs, one-octet value.
    static func characteristic(properties: GATTCharacteristicProperties, permissions: GATTPermissions,
                               value: GATTValue) -> GATTCharacteristicDefinition {
        GATTCharacteristicDefinition(uuid: uuid, properties: properties, permissions: permissions, value: value, maximumLength: 1)
    }
}
