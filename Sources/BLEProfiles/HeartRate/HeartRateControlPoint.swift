import BLEHost
import BLEWire

/// Heart Rate Control Point (GSS §3.113, characteristic 0x2A39; HRS 1.0 §3.3): written by a
/// client to command the sensor. One command is defined: 0x01, reset Energy Expended.
public enum HeartRateControlPoint: UInt8, CharacteristicValue, CaseIterable {
    /// The Heart Rate Control Point characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A39

    /// 0x01: set the Energy Expended to 0.
    case resetEnergyExpended = 0x01

    /// HRS 1.0 §1.6's application error 0x80, "Control Point value not supported":
    /// the answer to a write of any value other than 0x01.
    public static let valueNotSupported = ATT.ErrorCode.application(0x80)

    /// Decodes the one octet; other command values are refused.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "HeartRateControlPoint") { reader throws(WireError) in
            try ProfileDecoding.enumeration(&reader, "HeartRateControlPoint", HeartRateControlPoint.init(rawValue:))
        }
    }

    /// The one octet.
    public func encoded() -> [UInt8] { [rawValue] }
}
