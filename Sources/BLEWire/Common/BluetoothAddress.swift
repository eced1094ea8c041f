/// A 48-bit device address with its type (Core 5.4, Vol 6, Part B, §1.3).
///
/// The text form is most significant octet first, `C0:11:22:33:44:55`; the wire form is
/// least significant octet first. A random address's sub-type comes from its two most
/// significant bits (§1.3.2).
public struct BluetoothAddress: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// Public or random, as the Address_Type fields of HCI and the TxAdd/RxAdd bits say.
    public enum Kind: UInt8, Hashable, Sendable {
        case `public` = 0x00
        case random = 0x01
    }

    /// What a random address is, from its two most significant bits (§1.3.2).
    public enum RandomSubtype: Hashable, Sendable {
        /// `11`: random static, fixed for a power cycle or longer.
        case `static`
        /// `01`: resolvable private, generated from an IRK and resolvable with it.
        case resolvablePrivate
        /// `00`: non-resolvable private.
        case nonResolvablePrivate
        /// `10`: reserved by the specification.
        case reserved
    }

    /// The 48-bit value; bit 47 is the most significant bit of the text form's first octet.
    public let value: UInt64
    /// Public or random.
    public let kind: Kind

    /// An address from its 48-bit value; higher bits are ignored.
    public init(_ value: UInt64, kind: Kind = .public) {
        self.value = value & 0xFFFF_FFFF_FFFF
        self.kind = kind
    }

    /// Parses `C0:11:22:33:44:55` (any case; `-` also accepted as separator).
    public init?(_ text: String, kind: Kind = .public) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var result: UInt64 = 0
        for part in parts {
            guard part.count == 2, let octet = UInt8(part, radix: 16) else { return nil }
            result = result << 8 | UInt64(octet)
        }
        self.init(result, kind: kind)
    }

    /// The sub-type of a random address; `nil` for a public one.
    public var randomSubtype: RandomSubtype? {
        guard kind == .random else { return nil }
        switch value >> 46 {
        case 0b11: return .static
        case 0b01: return .resolvablePrivate
        case 0b00: return .nonResolvablePrivate
        default: return .reserved
        }
    }

    /// The six octets least significant first, as on the wire.
    public var littleEndianBytes: [UInt8] {
        (0 ..< 6).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// `C0:11:22:33:44:55`.
    public var description: String {
        (0 ..< 6).reversed().map { index -> String in
            let octet = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))
            let text = String(octet, radix: 16, uppercase: true)
            return octet < 0x10 ? "0" + text : text
        }.joined(separator: ":")
    }

    public static func < (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool {
        (lhs.value, lhs.kind.rawValue) < (rhs.value, rhs.kind.rawValue)
    }

    /// Reads six octets, least significant first, giving an address of `kind`.
    public init(from reader: inout ByteReader, kind: Kind, field: @autoclosure () -> String) throws(WireError) {
        self.init(try reader.readLittleEndian(octets: 6, field()), kind: kind)
    }

    /// Appends the six octets, least significant first (the kind is written by the caller,
    /// where the PDU has an address-type field).
    public func encode(to writer: inout ByteWriter) {
        writer.writeLittleEndian(value, octets: 6)
    }
}
