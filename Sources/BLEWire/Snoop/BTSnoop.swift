/// The btsnoop capture format that Wireshark, tshark and btmon read (described in the
/// "btsnoop file format" note from Symbian/Frontline, and in Wireshark's `wiretap/btsnoop.c`
/// documentation; there is no Bluetooth spec section for it).
///
/// A file is a 16-octet ``Header`` followed by ``Record``s. Unlike Bluetooth PDUs, every
/// integer in the format is BIG-endian. This namespace is sans-IO: it turns packets into
/// octets and octets into records; files and clocks live in higher layers.
public enum BTSnoop {
    /// The eight identification octets that start every file: `btsnoop` and a NUL.
    public static let identification: [UInt8] = Array("btsnoop".utf8) + [0]
    /// The only format version defined: 1.
    public static let version: UInt32 = 1
    /// The Unix epoch (1970-01-01T00:00:00Z) in the format's time base, microseconds
    /// since midnight of 1 January of year 0 AD.
    public static let unixEpochMicroseconds: Int64 = 0x00DC_DDB3_0F2F_8000

    /// The Datalink Type of the header: how each record's packet data is framed.
    /// Any value decodes, so a file of an unknown type is reported rather than refused.
    public struct Datalink: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The 32-bit value in the header.
        public var rawValue: UInt32

        /// The datalink for a raw value.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// 1001: un-encapsulated HCI (H1); the flags tell commands from events.
        public static let hciUnencapsulated = Datalink(rawValue: 1001)
        /// 1002: HCI UART (H4): each packet starts with its H4 packet type octet.
        public static let hciUART = Datalink(rawValue: 1002)
        /// 1003: HCI BCSP.
        public static let hciBCSP = Datalink(rawValue: 1003)
        /// 1004: HCI Serial (H5).
        public static let hciSerial = Datalink(rawValue: 1004)
        /// 2001: Linux Bluetooth monitor (btmon's own format).
        public static let linuxMonitor = Datalink(rawValue: 2001)

        /// Whether ``Record/hciPacket(datalink:)`` can interpret packets of this datalink
        /// (1001 and 1002).
        public var isSupported: Bool { self == .hciUnencapsulated || self == .hciUART }

        /// `1002 (HCI UART H4)`.
        public var description: String {
            switch rawValue {
            case 1001: return "1001 (HCI un-encapsulated H1)"
            case 1002: return "1002 (HCI UART H4)"
            case 1003: return "1003 (HCI BCSP)"
            case 1004: return "1004 (HCI Serial H5)"
            case 2001: return "2001 (Linux monitor)"
            default: return "\(rawValue) (unknown)"
            }
        }
    }

    /// The file header: identification, version and datalink type, 16 octets.
    public struct Header: WireCodable, Hashable, Sendable {
        /// Octets the header takes.
        public static let encodedLength = 16

        /// The datalink type of every record in the file.
        public var datalink: Datalink

        /// A version-1 header for `datalink` (H4 by default).
        public init(datalink: Datalink = .hciUART) { self.datalink = datalink }

        /// Reads the header; wrong identification octets or a version other than 1 throw.
        /// Any datalink value is accepted (check ``Datalink/isSupported``).
        public init(from reader: inout ByteReader) throws(WireError) {
            let magic = try reader.readBytes(8, "BTSnoop.Header.identification")
            guard magic.elementsEqual(BTSnoop.identification) else {
                throw WireError(field: "BTSnoop.Header.identification", reason: .constraint("not a btsnoop file"))
            }
            let version = UInt32(truncatingIfNeeded: try BTSnoop.readBigEndian(&reader, octets: 4, "BTSnoop.Header.version"))
            guard version == BTSnoop.version else {
                throw WireError(field: "BTSnoop.Header.version", reason: .invalidValue(UInt64(version)))
            }
            datalink = Datalink(rawValue: UInt32(truncatingIfNeeded: try BTSnoop.readBigEndian(&reader, octets: 4, "BTSnoop.Header.datalink")))
        }

        /// Appends the value in wire order.
        public func encode(to writer: inout ByteWriter) {
            writer.write(contentsOf: BTSnoop.identification)
            BTSnoop.writeBigEndian(&writer, UInt64(BTSnoop.version), octets: 4)
            BTSnoop.writeBigEndian(&writer, UInt64(datalink.rawValue), octets: 4)
        }
    }

    /// Which way a packet went, bit 0 of the packet flags.
    public enum Direction: UInt8, Hashable, Sendable, CaseIterable {
        /// 0: sent, host to controller.
        case sent = 0
        /// 1: received, controller to host.
        case received = 1
    }

    /// The kinds of HCI packet (Core 5.4, Vol 4, Part A, §2, Table 2.1, the H4 packet
    /// type octets).
    public enum PacketKind: UInt8, Hashable, Sendable, CaseIterable {
        /// HCI Command packet.
        case command = 0x01
        /// HCI ACL Data packet.
        case aclData = 0x02
        /// HCI Synchronous Data packet.
        case synchronousData = 0x03
        /// HCI Event packet.
        case event = 0x04
        /// HCI ISO Data packet.
        case isoData = 0x05

        /// Whether records of this kind set the command/event flag (bit 1).
        public var isCommandOrEvent: Bool { self == .command || self == .event }
    }

    /// Reads `octets` (at most 8) big-endian octets.
    static func readBigEndian(_ reader: inout ByteReader, octets: Int, _ field: @autoclosure () -> String) throws(WireError) -> UInt64 {
        let bytes = try reader.readBytes(octets, field())
        var value: UInt64 = 0
        for octet in bytes { value = value << 8 | UInt64(octet) }
        return value
    }

    /// Appends the low `octets` octets of `value`, big-endian.
    static func writeBigEndian(_ writer: inout ByteWriter, _ value: UInt64, octets: Int) {
        for index in (0 ..< octets).reversed() {
            writer.write(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}
