extension L2CAP {
    /// A B-frame, the basic information frame of L2CAP (Core 5.4, Vol 3, Part A, §3.1): a
    /// 16-bit payload length, the destination channel and the payload. Fixed channels
    /// (ATT, SMP, signaling) and credit-based K-frames all travel in this shape.
    ///
    /// The length is not stored: it is the payload's count, so a frame cannot disagree
    /// with itself. Payloads above 65 535 octets cannot be sent and are cut by the
    /// encoder's length field; the host never builds one.
    public struct BasicFrame: WireCodable, Hashable, Sendable {
        /// The 4-octet Basic L2CAP header (§3.1), decodable alone: the host reads it from
        /// the first ACL fragment of a PDU to learn how many octets to reassemble.
        public struct Header: WireCodable, Hashable, Sendable {
            /// The octets in the header.
            public static let size = 4

            /// The information payload's length in octets, not counting the header.
            public var length: UInt16
            /// The destination channel.
            public var channelIdentifier: ChannelIdentifier

            /// A header from its fields.
            @inlinable
            public init(length: UInt16, channelIdentifier: ChannelIdentifier) {
                self.length = length
                self.channelIdentifier = channelIdentifier
            }

            /// Reads length and CID.
            @inlinable
            public init(from reader: inout ByteReader) throws(WireError) {
                length = try reader.readUInt16("L2CAP.BasicFrame.Header.length")
                channelIdentifier = try reader.readChannelIdentifier("L2CAP.BasicFrame.Header.channelIdentifier")
            }

            /// Writes length and CID.
            @inlinable
            public func encode(to writer: inout ByteWriter) {
                writer.write(length)
                writer.write(channelIdentifier)
            }

            /// The octets of the whole frame: header plus payload.
            @inlinable
            public var frameLength: Int { Header.size + Int(length) }
        }

        /// The destination channel.
        public var channelIdentifier: ChannelIdentifier
        /// The information payload, a view into the input.
        public var payload: ArraySlice<UInt8>

        /// A frame carrying `payload` to `channelIdentifier`.
        @inlinable
        public init(channelIdentifier: ChannelIdentifier, payload: ArraySlice<UInt8>) {
            self.channelIdentifier = channelIdentifier
            self.payload = payload
        }

        /// The header this frame is sent with.
        @inlinable
        public var header: Header {
            Header(length: UInt16(truncatingIfNeeded: payload.count), channelIdentifier: channelIdentifier)
        }

        /// Header plus payload.
        public var encodedCountEstimate: Int { Header.size + payload.count }

        /// Reads the header, then exactly `length` payload octets. Used with
        /// ``WireDecodable/init(decoding:)``, octets beyond the length are an error, so a
        /// reassembled PDU must be exactly one frame.
        @inlinable
        public init(from reader: inout ByteReader) throws(WireError) {
            let header = try Header(from: &reader)
            guard reader.remainingCount >= Int(header.length) else {
                throw WireError(field: "L2CAP.BasicFrame.length",
                                reason: .lengthMismatch(declared: Int(header.length), actual: reader.remainingCount))
            }
            channelIdentifier = header.channelIdentifier
            payload = try reader.readBytes(Int(header.length), "L2CAP.BasicFrame.payload")
        }

        /// Writes the header and the payload.
        @inlinable
        public func encode(to writer: inout ByteWriter) {
            header.encode(to: &writer)
            writer.write(contentsOf: payload)
        }
    }
}
