extension HCI {
    /// An HCI ACL Data packet without its H4 type octet (Core 5.4, Vol 4, Part E, §5.4.2):
    /// a 12-bit connection handle, the packet boundary and broadcast flags, a 16-bit data
    /// total length and the data (an L2CAP PDU or a fragment of one).
    ///
    /// The data is a view into the received octets, not a copy.
    public struct ACLPacket: WireCodable, Hashable {
        /// The largest data block the 16-bit length field can describe.
        public static let maximumDataLength = Int(UInt16.max)

        /// The Packet_Boundary_Flag (§5.4.2): where this fragment sits in an L2CAP PDU.
        public enum PacketBoundaryFlag: UInt8, Hashable, Sendable, CaseIterable {
            /// 0b00: first fragment of a non-automatically-flushable PDU (host to
            /// controller only; the usual value for LE).
            case firstNonAutomaticallyFlushable = 0b00
            /// 0b01: a continuing fragment.
            case continuing = 0b01
            /// 0b10: first fragment of an automatically flushable PDU (what controllers
            /// send to the host for a first fragment).
            case firstAutomaticallyFlushable = 0b10
            /// 0b11: a complete, automatically flushable L2CAP PDU (not used on LE-U).
            case complete = 0b11
        }

        /// The Broadcast_Flag (§5.4.2). All four values are kept so any header round-trips.
        public enum BroadcastFlag: UInt8, Hashable, Sendable, CaseIterable {
            /// 0b00: point-to-point (the only value on LE).
            case pointToPoint = 0b00
            /// 0b01: BR/EDR broadcast.
            case brEDRBroadcast = 0b01
            /// 0b10: reserved for future use.
            case reserved2 = 0b10
            /// 0b11: reserved for future use.
            case reserved3 = 0b11
        }

        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Where this fragment sits in its L2CAP PDU.
        public var packetBoundary: PacketBoundaryFlag
        /// Point-to-point or broadcast.
        public var broadcast: BroadcastFlag
        /// The data, at most 65535 octets (in practice the controller's buffer size).
        public var data: ArraySlice<UInt8>

        /// A packet with every field given.
        public init(connectionHandle: UInt16, packetBoundary: PacketBoundaryFlag, broadcast: BroadcastFlag = .pointToPoint, data: ArraySlice<UInt8>) {
            self.connectionHandle = connectionHandle
            self.packetBoundary = packetBoundary
            self.broadcast = broadcast
            self.data = data
        }

        /// Header plus data.
        public var encodedCountEstimate: Int { 4 + data.count }

        public init(from reader: inout ByteReader) throws(WireError) {
            let header = try reader.readUInt16("HCI.ACLPacket.handle")
            connectionHandle = header & 0x0FFF
            guard connectionHandle <= HCI.maximumConnectionHandle else {
                throw WireError(field: "HCI.ACLPacket.connectionHandle", reason: .invalidValue(UInt64(connectionHandle)))
            }
            // Two-bit fields: every value maps to a case, so the fallbacks never run.
            packetBoundary = PacketBoundaryFlag(rawValue: UInt8(truncatingIfNeeded: header >> 12) & 0b11) ?? .continuing
            broadcast = BroadcastFlag(rawValue: UInt8(truncatingIfNeeded: header >> 14)) ?? .pointToPoint
            let length = Int(try reader.readUInt16("HCI.ACLPacket.dataTotalLength"))
            guard reader.remainingCount >= length else {
                throw WireError(field: "HCI.ACLPacket.data", reason: .lengthMismatch(declared: length, actual: reader.remainingCount))
            }
            data = try reader.readBytes(length, "HCI.ACLPacket.data")
        }

        /// Appends header, length and data. Data over 65535 octets (only possible when
        /// built by hand) is cut so the length field stays true.
        public func encode(to writer: inout ByteWriter) {
            let header = connectionHandle & 0x0FFF
                | UInt16(packetBoundary.rawValue) << 12
                | UInt16(broadcast.rawValue) << 14
            writer.write(header)
            let kept = data.prefix(Self.maximumDataLength)
            writer.write(UInt16(kept.count))
            writer.write(contentsOf: kept)
        }
    }
}
