extension BTSnoop {
    /// One packet record: a 24-octet big-endian record header and the packet data.
    ///
    /// Layout: original length (u32), included length (u32), packet flags (u32: bit 0
    /// direction, bit 1 command/event), cumulative drops (u32), timestamp (i64, µs since
    /// year 0 AD), then `included length` octets of packet data. For datalink 1002 the
    /// data is an H4 packet: its type octet, then the HCI packet.
    public struct Record: WireCodable, Hashable, Sendable {
        /// Octets of the record header before the packet data.
        public static let headerLength = 24

        /// The packet's length before any truncation by the capturer; at least `data.count`.
        public var originalLength: UInt32
        /// Bit 0 of the packet flags.
        public var direction: Direction
        /// Bit 1 of the packet flags: the packet is a command or an event, not data.
        public var isCommandOrEvent: Bool
        /// Packet flag bits 2–31, in place; undefined by the format and kept so round trips hold.
        public var otherFlags: UInt32
        /// Packets lost by the capturer since the file began.
        public var cumulativeDrops: UInt32
        /// Microseconds since midnight, 1 January of year 0 AD.
        public var timestamp: Int64
        /// The included packet data (its count is the included length), a view into the input.
        public var data: ArraySlice<UInt8>

        /// A record with every field given; `originalLength` defaults to the data's length.
        public init(
            direction: Direction, isCommandOrEvent: Bool, timestamp: Int64, data: ArraySlice<UInt8>,
            originalLength: UInt32? = nil, cumulativeDrops: UInt32 = 0, otherFlags: UInt32 = 0
        ) {
            self.direction = direction
            self.isCommandOrEvent = isCommandOrEvent
            self.timestamp = timestamp
            self.data = data
            self.originalLength = originalLength ?? UInt32(truncatingIfNeeded: data.count)
            self.cumulativeDrops = cumulativeDrops
            self.otherFlags = otherFlags & ~0x3
        }

        /// A record for an H4 packet (type octet first) captured at `unixMicroseconds`
        /// since 1970: the command/event flag comes from the type octet. Throws when the
        /// packet is empty or its type octet is not an H4 packet type.
        public init(h4Packet: [UInt8], direction: Direction, unixMicroseconds: Int64, cumulativeDrops: UInt32 = 0) throws(WireError) {
            guard let first = h4Packet.first else {
                throw WireError(field: "BTSnoop.Record.data", reason: .truncated(needed: 1, available: 0))
            }
            guard let kind = PacketKind(rawValue: first) else {
                throw WireError(field: "BTSnoop.Record.data", reason: .invalidValue(UInt64(first)))
            }
            self.init(direction: direction, isCommandOrEvent: kind.isCommandOrEvent,
                      timestamp: unixMicroseconds &+ BTSnoop.unixEpochMicroseconds, data: h4Packet[...],
                      cumulativeDrops: cumulativeDrops)
        }

        /// The timestamp as microseconds since the Unix epoch.
        public var unixMicroseconds: Int64 {
            get { timestamp &- BTSnoop.unixEpochMicroseconds }
            set { timestamp = newValue &+ BTSnoop.unixEpochMicroseconds }
        }

        /// The 32-bit packet flags field.
        public var packetFlags: UInt32 {
            otherFlags & ~0x3 | (isCommandOrEvent ? 0x2 : 0) | UInt32(direction.rawValue)
        }

        /// The packet's kind and its HCI packet without framing, as `datalink` frames it:
        /// for H4 (1002) from the type octet; for H1 (1001) from the flags (command/event
        /// flag plus direction; data records are taken as ACL, since H1 cannot tell
        /// synchronous data apart). Other datalinks throw ``WireError/Reason/unknownCode(_:)``.
        public func hciPacket(datalink: Datalink) throws(WireError) -> (kind: PacketKind, packet: ArraySlice<UInt8>) {
            switch datalink {
            case .hciUART:
                var reader = ByteReader(data)
                let type = try reader.readUInt8("BTSnoop.Record.data")
                guard let kind = PacketKind(rawValue: type) else {
                    throw WireError(field: "BTSnoop.Record.data", reason: .invalidValue(UInt64(type)))
                }
                return (kind, reader.readRemaining())
            case .hciUnencapsulated:
                let kind: PacketKind = isCommandOrEvent ? (direction == .sent ? .command : .event) : .aclData
                return (kind, data)
            default:
                throw WireError(field: "BTSnoop.Header.datalink", reason: .unknownCode(UInt64(datalink.rawValue)))
            }
        }

        /// Reads the value in wire order; throws naming the field that is truncated or invalid.
        public init(from reader: inout ByteReader) throws(WireError) {
            try self.init(from: &reader, field: "BTSnoop.Record")
        }

        /// Reads a record, naming fields under `field` (the reader passes `BTSnoop.Record[i]`).
        init(from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            originalLength = UInt32(truncatingIfNeeded: try BTSnoop.readBigEndian(&reader, octets: 4, field() + ".originalLength"))
            let included = Int(try BTSnoop.readBigEndian(&reader, octets: 4, field() + ".includedLength"))
            guard included <= Int(originalLength) else {
                throw WireError(field: field() + ".includedLength",
                                reason: .constraint("included length \(included) exceeds original length \(originalLength)"))
            }
            let flags = UInt32(truncatingIfNeeded: try BTSnoop.readBigEndian(&reader, octets: 4, field() + ".packetFlags"))
            direction = flags & 0x1 == 0 ? .sent : .received
            isCommandOrEvent = flags & 0x2 != 0
            otherFlags = flags & ~0x3
            cumulativeDrops = UInt32(truncatingIfNeeded: try BTSnoop.readBigEndian(&reader, octets: 4, field() + ".cumulativeDrops"))
            timestamp = Int64(bitPattern: try BTSnoop.readBigEndian(&reader, octets: 8, field() + ".timestamp"))
            guard reader.remainingCount >= included else {
                throw WireError(field: field() + ".data", reason: .lengthMismatch(declared: included, actual: reader.remainingCount))
            }
            data = try reader.readBytes(included, field() + ".data")
        }

        /// Appends the record header and data. An original length below the data's count
        /// (only possible when built by hand) is raised to it, so the file stays readable.
        public func encode(to writer: inout ByteWriter) {
            let included = UInt32(truncatingIfNeeded: data.count)
            BTSnoop.writeBigEndian(&writer, UInt64(max(originalLength, included)), octets: 4)
            BTSnoop.writeBigEndian(&writer, UInt64(included), octets: 4)
            BTSnoop.writeBigEndian(&writer, UInt64(packetFlags), octets: 4)
            BTSnoop.writeBigEndian(&writer, UInt64(cumulativeDrops), octets: 4)
            BTSnoop.writeBigEndian(&writer, UInt64(UInt64(bitPattern: timestamp)), octets: 8)
            writer.write(contentsOf: data)
        }
    }
}
