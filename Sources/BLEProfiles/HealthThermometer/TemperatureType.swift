import BLEWire

/// Temperature Type (GSS §3.226, characteristic 0x2A1D; HTS 1.0 §3.2): where on the body a
/// temperature is taken. 0 and 10–255 are reserved.
public enum TemperatureType: UInt8, CharacteristicValue, CaseIterable {
    /// The Temperature Type characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A1D

    /// 1: armpit.
    case armpit = 1
    /// 2: body (general).
    case body = 2
    /// 3: ear (usually the ear lobe).
    case ear = 3
    /// 4: finger.
    case finger = 4
    /// 5: gastro-intestinal tract.
    case gastroIntestinalTract = 5
    /// 6: mouth.
    case mouth = 6
    /// 7: rectum.
    case rectum = 7
    /// 8: toe.
    case toe = 8
    /// 9: tympanum (ear drum).
    case tympanum = 9

    /// Decodes the one octet, refusing reserved values.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "TemperatureType") { reader throws(WireError) in
            try ProfileDecoding.enumeration(&reader, "TemperatureType", TemperatureType.init(rawValue:))
        }
    }

    /// The one octet.
    public func encoded() -> [UInt8] { [rawValue] }
}
