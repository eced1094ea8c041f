import BLEWire

/// Body Sensor Location (GSS §3.35, characteristic 0x2A38; HRS 1.0 §3.2): where the heart
/// rate sensor is worn, one octet; 7–255 are reserved.
public enum BodySensorLocation: UInt8, CharacteristicValue, CaseIterable {
    /// The Body Sensor Location characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A38

    /// 0: other.
    case other = 0
    /// 1: chest.
    case chest = 1
    /// 2: wrist.
    case wrist = 2
    /// 3: finger.
    case finger = 3
    /// 4: hand.
    case hand = 4
    /// 5: ear lobe.
    case earLobe = 5
    /// 6: foot.
    case foot = 6

    /// Decodes the one octet, refusing reserved values.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "BodySensorLocation") { reader throws(WireError) in
            try ProfileDecoding.enumeration(&reader, "BodySensorLocation", BodySensorLocation.init(rawValue:))
        }
    }

    /// The one octet.
    public func encoded() -> [UInt8] { [rawValue] }
}
