/// A Bluetooth UUID in its 16-, 32- or 128-bit form (Core 5.4, Vol 3, Part B, §2.5.1).
///
/// 16- and 32-bit UUIDs are aliases on the Bluetooth Base UUID
/// `00000000-0000-1000-8000-00805F9B34FB`. Equality and hashing use the full 128-bit
/// value, so `180D` equals `0000180D-0000-1000-8000-00805F9B34FB`, as in Core
/// Bluetooth's `CBUUID`. The wire form is little-endian in the width the value was
/// created or decoded with; ``shortest`` gives the smallest width.
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The width of the UUID's form.
    public enum Width: Int, Hashable, Sendable {
        case bits16 = 2
        case bits32 = 4
        case bits128 = 16

        /// Octets on the wire.
        public var octets: Int { rawValue }
    }

    /// The Bluetooth Base UUID, `00000000-0000-1000-8000-00805F9B34FB`.
    public static let baseValue: UInt128 = 0x0000_0000_0000_1000_8000_0080_5F9B_34FB

    /// The full 128-bit value, most significant octet first in text form.
    public let value: UInt128
    /// The width this UUID was created or decoded with; it decides the wire form.
    public let width: Width

    /// A 16-bit UUID on the Base UUID, e.g. `0x180D` (Heart Rate).
    public init(_ short: UInt16) {
        value = BluetoothUUID.baseValue | UInt128(short) << 96
        width = .bits16
    }

    /// A 32-bit UUID on the Base UUID.
    public init(uuid32: UInt32) {
        value = BluetoothUUID.baseValue | UInt128(uuid32) << 96
        width = .bits32
    }

    /// A 128-bit UUID, kept in the 128-bit width even when it lies on the Base UUID.
    public init(uuid128: UInt128) {
        value = uuid128
        width = .bits128
    }

    /// Parses text as Core Bluetooth's `CBUUID(string:)` does: 4 or 8 hex digits for an
    /// alias on the Base UUID, or the 36-character 8-4-4-4-12 form; any case. Returns `nil`
    /// for anything else.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        func hexValue(_ digits: ArraySlice<UInt8>) -> UInt128? {
            var result: UInt128 = 0
            for digit in digits {
                let nibble: UInt8
                switch digit {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
                case UInt8(ascii: "a") ... UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A") ... UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
                default: return nil
                }
                result = result << 4 | UInt128(nibble)
            }
            return result
        }
        switch utf8.count {
        case 4:
            guard let short = hexValue(utf8[...]) else { return nil }
            self.init(UInt16(truncatingIfNeeded: short))
        case 8:
            guard let medium = hexValue(utf8[...]) else { return nil }
            self.init(uuid32: UInt32(truncatingIfNeeded: medium))
        case 36:
            let dash = UInt8(ascii: "-")
            guard utf8[8] == dash, utf8[13] == dash, utf8[18] == dash, utf8[23] == dash else { return nil }
            let digits = utf8.filter { $0 != dash }
            guard digits.count == 32, let full = hexValue(digits[...]) else { return nil }
            self.init(uuid128: full)
        default:
            return nil
        }
    }

    /// Whether the value lies on the Bluetooth Base UUID, so it has a 16- or 32-bit alias.
    public var isOnBase: Bool {
        value & ~(UInt128(UInt32.max) << 96) == BluetoothUUID.baseValue
    }

    /// The 16-bit alias, when the value is on the Base UUID and fits 16 bits.
    public var uuid16: UInt16? {
        guard isOnBase, value >> 96 <= UInt128(UInt16.max) else { return nil }
        return UInt16(truncatingIfNeeded: value >> 96)
    }

    /// The 32-bit alias, when the value is on the Base UUID.
    public var uuid32: UInt32? {
        guard isOnBase else { return nil }
        return UInt32(truncatingIfNeeded: value >> 96)
    }

    /// The same UUID in its smallest width: 16-bit, then 32-bit, then 128-bit.
    public var shortest: BluetoothUUID {
        if let short = uuid16 { return BluetoothUUID(short) }
        if let medium = uuid32 { return BluetoothUUID(uuid32: medium) }
        return BluetoothUUID(uuid128: value)
    }

    /// Text form as Core Bluetooth prints it: `180D` for 16-bit aliases, 8 digits for
    /// 32-bit aliases, otherwise the uppercase 8-4-4-4-12 form.
    public var description: String {
        if let short = uuid16 { return hex(UInt128(short), digits: 4) }
        if let medium = uuid32 { return hex(UInt128(medium), digits: 8) }
        return uuidString
    }

    /// The uppercase 8-4-4-4-12 form of the full 128-bit value.
    public var uuidString: String {
        let text = hex(value, digits: 32)
        let chars = Array(text)
        return String(chars[0 ..< 8]) + "-" + String(chars[8 ..< 12]) + "-" + String(chars[12 ..< 16])
            + "-" + String(chars[16 ..< 20]) + "-" + String(chars[20 ..< 32])
    }

    private func hex(_ number: UInt128, digits: Int) -> String {
        let text = String(number, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    public static func == (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
    public static func < (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool { lhs.value < rhs.value }

    /// Appends the UUID little-endian in its own ``width``.
    public func encode(to writer: inout ByteWriter) {
        switch width {
        case .bits16: writer.write(UInt16(truncatingIfNeeded: value >> 96))
        case .bits32: writer.write(UInt32(truncatingIfNeeded: value >> 96))
        case .bits128: writer.write(value)
        }
    }

    /// Appends the UUID little-endian in `width`; a 16-bit form of a UUID that does not fit
    /// falls back to 128 bits (callers pick the width with ``uuid16`` first).
    public func encode(to writer: inout ByteWriter, width: Width) {
        switch (width, uuid16, uuid32) {
        case let (.bits16, short?, _): writer.write(short)
        case let (.bits32, _, medium?): writer.write(medium)
        default: writer.write(value)
        }
    }

    /// Reads a UUID of `width` little-endian octets.
    public init(from reader: inout ByteReader, width: Width, field: @autoclosure () -> String) throws(WireError) {
        switch width {
        case .bits16: self.init(try reader.readUInt16(field()))
        case .bits32: self.init(uuid32: try reader.readUInt32(field()))
        case .bits128: self.init(uuid128: try reader.readUInt128(field()))
        }
    }

    /// Decodes a UUID whose width is the whole of `bytes` (2, 4 or 16 octets), as in an
    /// ATT attribute type or a GATT declaration value.
    public init(decoding bytes: ArraySlice<UInt8>, field: @autoclosure () -> String = "BluetoothUUID") throws(WireError) {
        var reader = ByteReader(bytes)
        switch bytes.count {
        case 2: try self.init(from: &reader, width: .bits16, field: field())
        case 4: try self.init(from: &reader, width: .bits32, field: field())
        case 16: try self.init(from: &reader, width: .bits128, field: field())
        default:
            throw WireError(field: field(), reason: .constraint("a UUID is 2, 4 or 16 octets, not \(bytes.count)"))
        }
    }
}

extension BluetoothUUID: ExpressibleByIntegerLiteral {
    /// A 16-bit UUID from a literal, e.g. `let heartRate: BluetoothUUID = 0x180D`.
    public init(integerLiteral value: UInt16) { self.init(value) }
}
