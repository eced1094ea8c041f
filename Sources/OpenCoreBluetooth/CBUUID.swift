import BLE
import Foundation

/// A Bluetooth UUID as Core Bluetooth spells it (`CBUUID`): a 16-, 32- or 128-bit UUID
/// (Core 5.4, Vol 3, Part B, §2.5.1), the short forms being aliases on the Bluetooth Base
/// UUID, so `CBUUID(string: "180D")` equals
/// `CBUUID(string: "0000180D-0000-1000-8000-00805F9B34FB")`.
///
/// Unlike the attribute classes it is not tied to the main actor: it is an immutable,
/// Sendable value class, usable from any thread as on Apple platforms.
///
/// **Departure.** Core Bluetooth raises an Objective-C exception for text that is not a
/// UUID; Linux has no such exception and SwiftBLE does not trap on input, so such text
/// gives the nil UUID `00000000-0000-0000-0000-000000000000` (check with
/// ``init(validating:)``, SwiftBLE-only, when the text comes from outside).
public final class CBUUID: NSObject, NSCopying, Sendable {
    /// The UUID, in the width it was made with.
    let value: BluetoothUUID

    /// A UUID from SwiftBLE's ``BluetoothUUID``.
    init(_ value: BluetoothUUID) {
        self.value = value
        super.init()
    }

    /// A UUID from text: 4 or 8 hex digits for an alias on the Base UUID, or the
    /// 36-character 8-4-4-4-12 form, any case (`+[CBUUID UUIDWithString:]`).
    public convenience init(string theString: String) {
        self.init(BluetoothUUID(theString) ?? BluetoothUUID(uuid128: 0))
    }

    /// A UUID from text, or `nil` when the text is not one (SwiftBLE-only; Core Bluetooth
    /// raises an exception instead).
    public convenience init?(validating text: String) {
        guard let value = BluetoothUUID(text) else { return nil }
        self.init(value)
    }

    /// A UUID from 2, 4 or 16 bytes, most significant first, as ``data`` gives them
    /// (`+[CBUUID UUIDWithData:]`); other lengths give the nil UUID (see the departure above).
    public convenience init(data theData: Data) {
        var number: UInt128 = 0
        for byte in theData { number = number << 8 | UInt128(byte) }
        switch theData.count {
        case 2: self.init(BluetoothUUID(UInt16(truncatingIfNeeded: number)))
        case 4: self.init(BluetoothUUID(uuid32: UInt32(truncatingIfNeeded: number)))
        case 16: self.init(BluetoothUUID(uuid128: number))
        default: self.init(BluetoothUUID(uuid128: 0))
        }
    }

    /// A 128-bit UUID from Foundation's `UUID` (`+[CBUUID UUIDWithNSUUID:]`).
    public convenience init(nsuuid theUUID: UUID) {
        var number: UInt128 = 0
        withUnsafeBytes(of: theUUID.uuid) { bytes in
            for byte in bytes { number = number << 8 | UInt128(byte) }
        }
        self.init(BluetoothUUID(uuid128: number))
    }

    /// The UUID's bytes, most significant first: 2 for a 16-bit alias, 4 for a 32-bit
    /// alias, else 16 (`CBUUID.data`).
    public var data: Data {
        let number: UInt128
        let octets: Int
        if let short = value.uuid16 {
            (number, octets) = (UInt128(short), 2)
        } else if let medium = value.uuid32 {
            (number, octets) = (UInt128(medium), 4)
        } else {
            (number, octets) = (value.value, 16)
        }
        let bytes = (0 ..< octets).reversed().map { UInt8(truncatingIfNeeded: number >> (UInt128($0) * 8)) }
        return Data(bytes)
    }

    /// `180D` for a 16-bit alias, 8 digits for a 32-bit alias, else the uppercase
    /// 8-4-4-4-12 form (`CBUUID.UUIDString`).
    public var uuidString: String { value.description }

    /// The ``uuidString``; Core Bluetooth prints a name for some well-known UUIDs
    /// ("Heart Rate"), SwiftBLE always the digits.
    public override var description: String { value.description }

    /// Equal when the full 128-bit values are equal, whatever width each was made with.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CBUUID else { return false }
        return other.value == value
    }

    /// A hash of the full 128-bit value.
    public override var hash: Int { value.hashValue }

    /// The UUID itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// The Characteristic Extended Properties descriptor, 0x2900 (Core 5.4, Vol 3, Part G, §3.3.3.1).
public let CBUUIDCharacteristicExtendedPropertiesString = "2900"
/// The Characteristic User Description descriptor, 0x2901 (Vol 3, Part G, §3.3.3.2).
public let CBUUIDCharacteristicUserDescriptionString = "2901"
/// The Client Characteristic Configuration descriptor, 0x2902 (Vol 3, Part G, §3.3.3.3).
public let CBUUIDClientCharacteristicConfigurationString = "2902"
/// The Server Characteristic Configuration descriptor, 0x2903 (Vol 3, Part G, §3.3.3.4).
public let CBUUIDServerCharacteristicConfigurationString = "2903"
/// The Characteristic Presentation Format descriptor, 0x2904 (Vol 3, Part G, §3.3.3.5).
public let CBUUIDCharacteristicFormatString = "2904"
/// The Characteristic Aggregate Format descriptor, 0x2905 (Vol 3, Part G, §3.3.3.6).
public let CBUUIDCharacteristicAggregateFormatString = "2905"
/// The Valid Range descriptor, 0x2906 (GATT Specification Supplement).
public let CBUUIDCharacteristicValidRangeString = "2906"
/// Apple's characteristic carrying the PSM of a published L2CAP channel.
public let CBUUIDL2CAPPSMCharacteristicString = "ABDD3056-28FA-441D-A470-55A75A52553A"
