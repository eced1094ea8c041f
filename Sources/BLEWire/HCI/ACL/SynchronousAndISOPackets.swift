extension HCI {
    /// An HCI Synchronous Data packet (SCO/eSCO) without its H4 type octet (Core 5.4,
    /// Vol 4, Part E, §5.4.3): a 12-bit connection handle, the packet status flag, two
    /// reserved bits, an 8-bit data total length and the data.
    ///
    /// BR/EDR only; modelled so an H4 stream that carries one can still be framed totally.
    public struct SynchronousPacket: WireCodable, Hashable {
        /// The Packet_Status_Flag (§5.4.3), meaningful controller to host only.
        public enum PacketStatus: UInt8, Hashable, Sendable, CaseIterable {
            /// 0b00: correctly received data.
            case correctlyReceived = 0b00
            /// 0b01: possibly invalid data.
            case possiblyInvalid = 0b01
            /// 0b10: no data received; the data is to be ignored.
            case noData = 0b10
            /// 0b11: data partially lost.
            case partiallyLost = 0b11
        }

        /// The connection (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// How well the data was received.
        public var packetStatus: PacketStatus
        /// Bits 14–15 of the header, reserved; kept so any header round-trips.
        public var reservedBits: UInt8
        /// The data, at most 255 octets.
        public var data: ArraySlice<UInt8>

        /// A packet with every field given.
        public init(connectionHandle: UInt16, packetStatus: PacketStatus = .correctlyReceived, reservedBits: UInt8 = 0, data: ArraySlice<UInt8>) {
            self.connectionHandle = connectionHandle
            self.packetStatus = packetStatus
            self.reservedBits = reservedBits
            self.data = data
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            let header = try reader.readUInt16("HCI.SynchronousPacket.handle")
            connectionHandle = header & 0x0FFF
            guard connectionHandle <= HCI.maximumConnectionHandle else {
                throw WireError(field: "HCI.SynchronousPacket.connectionHandle", reason: .invalidValue(UInt64(connectionHandle)))
            }
            // A two-bit field: every value maps to a case, so the fallback never runs.
            packetStatus = PacketStatus(rawValue: UInt8(truncatingIfNeeded: header >> 12) & 0b11) ?? .correctlyReceived
            reservedBits = UInt8(truncatingIfNeeded: header >> 14)
            let length = Int(try reader.readUInt8("HCI.SynchronousPacket.dataTotalLength"))
            guard reader.remainingCount >= length else {
                throw WireError(field: "HCI.SynchronousPacket.data", reason: .lengthMismatch(declared: length, actual: reader.remainingCount))
            }
            data = try reader.readBytes(length, "HCI.SynchronousPacket.data")
        }

        /// Appends header, length and data; data over 255 octets is cut so the length
        /// stays true.
        public func encode(to writer: inout ByteWriter) {
            let header = connectionHandle & 0x0FFF
                | UInt16(packetStatus.rawValue) << 12
                | UInt16(reservedBits & 0b11) << 14
            writer.write(header)
            let kept = data.prefix(Int(UInt8.max))
            writer.write(UInt8(kept.count))
            writer.write(contentsOf: kept)
        }
    }

    /// An HCI ISO Data packet without its H4 type octet (Core 5.4, Vol 4, Part E, §5.4.5):
    /// a 12-bit connection handle (CIS or BIS), the packet boundary and timestamp flags,
    /// a 14-bit data total length and the payload.
    ///
    /// The payload is kept raw: it starts with the optional timestamp, the packet sequence
    /// number and the ISO SDU length when ``packetBoundary`` marks a first fragment or a
    /// complete SDU — the isochronous layer reads those.
    public struct ISOPacket: WireCodable, Hashable {
        /// The largest payload the 14-bit length field can describe.
        public static let maximumDataLength = 0x3FFF

        /// The PB_Flag (§5.4.5): where this fragment sits in its ISO SDU.
        public enum PacketBoundaryFlag: UInt8, Hashable, Sendable, CaseIterable {
            /// 0b00: the first fragment of a fragmented SDU.
            case firstFragment = 0b00
            /// 0b01: a continuation fragment.
            case continuationFragment = 0b01
            /// 0b10: a complete SDU.
            case complete = 0b10
            /// 0b11: the last fragment of a fragmented SDU.
            case lastFragment = 0b11
        }

        /// The CIS or BIS handle (0x0000–0x0EFF).
        public var connectionHandle: UInt16
        /// Where this fragment sits in its SDU.
        public var packetBoundary: PacketBoundaryFlag
        /// TS_Flag: whether the payload starts with a Time_Stamp.
        public var hasTimestamp: Bool
        /// Reserved bit 15 of the first header field and bits 14–15 of the length field,
        /// kept (as bits 0, 1 and 2 of this value) so any header round-trips.
        public var reservedBits: UInt8
        /// The payload, at most 16383 octets.
        public var payload: ArraySlice<UInt8>

        /// A packet with every field given.
        public init(connectionHandle: UInt16, packetBoundary: PacketBoundaryFlag, hasTimestamp: Bool, reservedBits: UInt8 = 0, payload: ArraySlice<UInt8>) {
            self.connectionHandle = connectionHandle
            self.packetBoundary = packetBoundary
            self.hasTimestamp = hasTimestamp
            self.reservedBits = reservedBits
            self.payload = payload
        }

        public init(from reader: inout ByteReader) throws(WireError) {
            let header = try reader.readUInt16("HCI.ISOPacket.handle")
            connectionHandle = header & 0x0FFF
            guard connectionHandle <= HCI.maximumConnectionHandle else {
                throw WireError(field: "HCI.ISOPacket.connectionHandle", reason: .invalidValue(UInt64(connectionHandle)))
            }
            // A two-bit field: every value maps to a case, so the fallback never runs.
            packetBoundary = PacketBoundaryFlag(rawValue: UInt8(truncatingIfNeeded: header >> 12) & 0b11) ?? .complete
            hasTimestamp = header & 0x4000 != 0
            let lengthField = try reader.readUInt16("HCI.ISOPacket.dataTotalLength")
            reservedBits = UInt8(truncatingIfNeeded: header >> 15) | UInt8(truncatingIfNeeded: lengthField >> 14) << 1
            let length = Int(lengthField & 0x3FFF)
            guard reader.remainingCount >= length else {
                throw WireError(field: "HCI.ISOPacket.payload", reason: .lengthMismatch(declared: length, actual: reader.remainingCount))
            }
            payload = try reader.readBytes(length, "HCI.ISOPacket.payload")
        }

        /// Appends the two header fields and the payload; a payload over 16383 octets is
        /// cut so the length stays true.
        public func encode(to writer: inout ByteWriter) {
            var header = connectionHandle & 0x0FFF | UInt16(packetBoundary.rawValue) << 12
            if hasTimestamp { header |= 0x4000 }
            header |= UInt16(reservedBits & 0b1) << 15
            writer.write(header)
            let kept = payload.prefix(Self.maximumDataLength)
            writer.write(UInt16(kept.count) | UInt16((reservedBits >> 1) & 0b11) << 14)
            writer.write(contentsOf: kept)
        }
    }
}
