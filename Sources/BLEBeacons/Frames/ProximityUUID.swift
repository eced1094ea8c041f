import BLEWire

/// The 128-bit UUID that names a family of iBeacons (Apple, "Proximity Beacon
/// Specification"): the first part of an iBeacon's identity and of a Core Location beacon
/// region. Not a Bluetooth service UUID, so it has no 16-bit short form: it always prints
/// as the 36-character 8-4-4-4-12 form.
public struct ProximityUUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The UUID as a number, most significant octet first as written.
    public var value: UInt128

    /// The UUID whose text form is `value` in hexadecimal.
    public init(_ value: UInt128) { self.value = value }

    /// Parses the 8-4-4-4-12 form in any case, e.g. `E2C56DB5-DFFB-48D2-B060-D0F5A71096E0`;
    /// `nil` for anything else.
    public init?(_ text: String) {
        guard text.utf8.count == 36, let uuid = BluetoothUUID(text) else { return nil }
        value = uuid.value
    }

    /// The UUID from its 16 octets in transmission order (most significant first), as an
    /// iBeacon carries it; `nil` unless there are exactly 16.
    public init?<Octets: Collection>(octets: Octets) where Octets.Element == UInt8 {
        guard octets.count == 16 else { return nil }
        value = octets.reduce(UInt128.zero) { $0 << 8 | UInt128($1) }
    }

    /// The 16 octets, most significant first (the order an iBeacon sends them).
    public var octets: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        bytes.appendBigEndian(value)
        return bytes
    }

    /// The uppercase 8-4-4-4-12 form, as Foundation's `UUID.uuidString` prints it.
    public var uuidString: String { BluetoothUUID(uuid128: value).uuidString }

    /// The uppercase 8-4-4-4-12 form.
    public var description: String { uuidString }

    /// Orders by value, so listings of beacons are stable.
    public static func < (lhs: ProximityUUID, rhs: ProximityUUID) -> Bool { lhs.value < rhs.value }
}
