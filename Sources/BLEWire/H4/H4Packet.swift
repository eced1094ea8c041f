extension H4 {
    /// The HCI packet indicator that precedes every packet on an H4 (UART) transport
    /// (Core 5.4, Vol 4, Part A, §2).
    public enum PacketType: UInt8, Hashable, Sendable, CaseIterable {
        /// HCI Command packet (host to controller).
        case command = 0x01
        /// HCI ACL Data packet.
        case acl = 0x02
        /// HCI Synchronous Data packet.
        case sco = 0x03
        /// HCI Event packet (controller to host).
        case event = 0x04
        /// HCI ISO Data packet.
        case iso = 0x05

        /// Octets of the packet header after the type octet, up to and including the
        /// length field: what a deframer must have before it knows the packet's size.
        var headerLength: Int {
            switch self {
            case .command: return 3
            case .acl: return 4
            case .sco: return 3
            case .event: return 2
            case .iso: return 4
            }
        }
    }

    /// One HCI packet with its H4 packet indicator (Core 5.4, Vol 4, Part A, §2): the
    /// unit a UART, TCP or virtual-controller byte stream carries.
    public enum Packet: WireCodable, Hashable {
        /// An HCI Command packet.
        case command(HCI.CommandPacket)
        /// An HCI ACL Data packet.
        case acl(HCI.ACLPacket)
        /// An HCI Synchronous Data packet.
        case sco(HCI.SynchronousPacket)
        /// An HCI Event packet.
        case event(HCI.EventPacket)
        /// An HCI ISO Data packet.
        case iso(HCI.ISOPacket)

        /// The packet indicator for this packet.
        public var packetType: PacketType {
            switch self {
            case .command: return .command
            case .acl: return .acl
            case .sco: return .sco
            case .event: return .event
            case .iso: return .iso
            }
        }

        /// Reads the packet indicator and the packet it announces; an unknown indicator
        /// throws ``WireError/Reason/unknownCode(_:)``.
        public init(from reader: inout ByteReader) throws(WireError) {
            let raw = try reader.readUInt8("H4.Packet.packetType")
            guard let type = PacketType(rawValue: raw) else {
                throw WireError(field: "H4.Packet.packetType", reason: .unknownCode(UInt64(raw)))
            }
            switch type {
            case .command: self = .command(try HCI.CommandPacket(from: &reader))
            case .acl: self = .acl(try HCI.ACLPacket(from: &reader))
            case .sco: self = .sco(try HCI.SynchronousPacket(from: &reader))
            case .event: self = .event(try HCI.EventPacket(from: &reader))
            case .iso: self = .iso(try HCI.ISOPacket(from: &reader))
            }
        }

        /// Appends the packet indicator and the packet.
        /// The type octet plus the packet.
        public var encodedCountEstimate: Int {
            switch self {
            case let .command(packet): return 1 + packet.encodedCountEstimate
            case let .acl(packet): return 1 + packet.encodedCountEstimate
            case let .sco(packet): return 1 + packet.encodedCountEstimate
            case let .event(packet): return 1 + packet.encodedCountEstimate
            case let .iso(packet): return 1 + packet.encodedCountEstimate
            }
        }

        public func encode(to writer: inout ByteWriter) {
            writer.write(packetType.rawValue)
            switch self {
            case let .command(packet): packet.encode(to: &writer)
            case let .acl(packet): packet.encode(to: &writer)
            case let .sco(packet): packet.encode(to: &writer)
            case let .event(packet): packet.encode(to: &writer)
            case let .iso(packet): packet.encode(to: &writer)
            }
        }
    }
}
