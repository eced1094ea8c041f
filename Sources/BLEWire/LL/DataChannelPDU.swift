extension LL {
    /// A data physical channel PDU (Core 5.4, Vol 6, Part B, §2.4): a 16-bit header
    /// (LLID, NESN, SN, MD, CP, RFU, Length), an optional CTEInfo octet when CP is set,
    /// and a payload of Length octets (with the MIC inside when the link is encrypted).
    ///
    /// The payload is a view into the received octets, not a copy.
    public struct DataChannelPDU: WireCodable, Hashable {
        /// The LLID field (§2.4): what the payload carries.
        public enum LLID: UInt8, Hashable, Sendable, CaseIterable {
            /// 0b01: a continuation fragment of an L2CAP message, or an empty PDU.
            case continuationOrEmpty = 0b01
            /// 0b10: the start of an L2CAP message, or a complete one with no fragmentation.
            case start = 0b10
            /// 0b11: an LL control PDU.
            case control = 0b11
        }

        /// What the payload carries.
        public var llid: LLID
        /// Next Expected Sequence Number (§4.5.9): acknowledges the peer's last packet.
        public var nextExpectedSequenceNumber: Bool
        /// Sequence Number (§4.5.9): tells a new packet from a retransmission.
        public var sequenceNumber: Bool
        /// More Data: the sender has more to send in this connection event.
        public var moreData: Bool
        /// The CTEInfo octet, present when the CP bit is set (§2.4.2 for constant tone
        /// extensions); `nil` when CP is 0, as on every link this stack makes.
        public var cteInfo: UInt8?
        /// The two RFU bits of the first header octet (bits 6–7), kept so a received header
        /// round-trips; receivers ignore them.
        public var reservedBits: UInt8
        /// The payload: Length octets.
        public var payload: ArraySlice<UInt8>

        /// A PDU with every field; `reservedBits` is masked to two bits.
        public init(
            llid: LLID, nextExpectedSequenceNumber: Bool, sequenceNumber: Bool, moreData: Bool,
            cteInfo: UInt8? = nil, reservedBits: UInt8 = 0, payload: ArraySlice<UInt8>
        ) {
            self.llid = llid
            self.nextExpectedSequenceNumber = nextExpectedSequenceNumber
            self.sequenceNumber = sequenceNumber
            self.moreData = moreData
            self.cteInfo = cteInfo
            self.reservedBits = reservedBits & 0b11
            self.payload = payload
        }

        /// The largest Length a data channel PDU can declare: 251 payload octets and a 4-octet MIC.
        public static let maximumLength = 255

        /// Whether this is an empty PDU (LLID 01, no payload), the packet sent when there is
        /// nothing else to acknowledge with (§4.5.9).
        public var isEmpty: Bool { llid == .continuationOrEmpty && payload.isEmpty }

        /// Header, optional CTEInfo and payload.
        public var encodedCountEstimate: Int { 3 + payload.count }

        /// The first header octet with the given sequence bits (the encoder's own layout).
        public var firstHeaderOctet: UInt8 {
            llid.rawValue
                | (nextExpectedSequenceNumber ? 0x04 : 0)
                | (sequenceNumber ? 0x08 : 0)
                | (moreData ? 0x10 : 0)
                | (cteInfo == nil ? 0 : 0x20)
                | reservedBits << 6
        }

        /// Reads header, optional CTEInfo and Length octets of payload.
        public init(from reader: inout ByteReader) throws(WireError) {
            let first = try reader.readUInt8("LL.DataChannelPDU.header")
            guard let llid = LLID(rawValue: first & 0b11) else {
                throw WireError(field: "LL.DataChannelPDU.llid", reason: .invalidValue(UInt64(first & 0b11)))
            }
            self.llid = llid
            nextExpectedSequenceNumber = first & 0x04 != 0
            sequenceNumber = first & 0x08 != 0
            moreData = first & 0x10 != 0
            reservedBits = first >> 6
            let length = Int(try reader.readUInt8("LL.DataChannelPDU.length"))
            cteInfo = first & 0x20 != 0 ? try reader.readUInt8("LL.DataChannelPDU.cteInfo") : nil
            guard reader.remainingCount >= length else {
                throw WireError(field: "LL.DataChannelPDU.payload", reason: .lengthMismatch(declared: length, actual: reader.remainingCount))
            }
            payload = try reader.readBytes(length, "LL.DataChannelPDU.payload")
        }

        /// Appends header, optional CTEInfo and payload. A payload over 255 octets (only
        /// possible when built by hand) is cut so the Length field stays true.
        public func encode(to writer: inout ByteWriter) {
            let kept = payload.prefix(Self.maximumLength)
            writer.write(firstHeaderOctet)
            writer.write(UInt8(kept.count))
            if let cteInfo { writer.write(cteInfo) }
            writer.write(contentsOf: kept)
        }
    }
}
