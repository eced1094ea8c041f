extension H4 {
    /// An incremental deframer for an H4 byte stream (Core 5.4, Vol 4, Part A, §2): feed it
    /// octets as they arrive, in any chunking, and take whole packets out.
    ///
    /// H4 has no synchronisation pattern: the only framing is the packet indicator and the
    /// length field of each packet's header. An unknown packet indicator therefore means the
    /// stream is lost — there is no way to find the next packet boundary. ``next()`` throws
    /// for it and keeps throwing the same error until ``reset()`` (typically together with
    /// an HCI Reset of the controller). A packet whose framing is sound but whose header
    /// is invalid (e.g. an ACL connection handle above 0x0EFF) also throws, but its octets
    /// are consumed and the following packet decodes normally.
    ///
    /// Octets are kept in one buffer with a read index; consumed octets are dropped when the
    /// buffer is drained, or in one move once they make up most of it, so the cost stays
    /// linear in the stream length. Each returned packet owns a copy of its own octets (one
    /// allocation), so holding on to packets never pins or copies the stream buffer.
    public struct StreamDecoder: Sendable {
        /// Consumed octets beyond which ``append(_:)`` compacts the buffer if they are also
        /// at least half of it.
        public static let compactionThreshold = 4096

        private var buffer: [UInt8] = []
        private var readIndex = 0
        private var failure: WireError?

        /// A decoder with an empty buffer.
        public init() {}

        /// Octets received but not yet returned as packets.
        public var bufferedCount: Int { buffer.count - readIndex }

        /// Adds received octets to the end of the stream.
        public mutating func append(_ bytes: some Collection<UInt8>) {
            if readIndex == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                readIndex = 0
            } else if readIndex >= Self.compactionThreshold, readIndex * 2 >= buffer.count {
                buffer.removeSubrange(0 ..< readIndex)
                readIndex = 0
            }
            buffer.append(contentsOf: bytes)
        }

        /// The next complete packet, or `nil` if more octets are needed.
        ///
        /// Throws ``WireError/Reason/unknownCode(_:)`` for an unknown packet indicator (and
        /// again on every later call until ``reset()``), or the packet's own decoding error
        /// for a well-framed but invalid packet (which is then skipped).
        public mutating func next() throws(WireError) -> Packet? {
            if let failure { throw failure }
            let available = buffer.count - readIndex
            guard available >= 1 else { return nil }
            let indicator = buffer[readIndex]
            guard let type = PacketType(rawValue: indicator) else {
                let error = WireError(field: "H4.StreamDecoder.packetType", reason: .unknownCode(UInt64(indicator)))
                failure = error
                throw error
            }
            guard available >= 1 + type.headerLength else { return nil }
            let header = readIndex + 1
            let payloadLength: Int
            switch type {
            case .command, .sco:
                payloadLength = Int(buffer[header + 2])
            case .event:
                payloadLength = Int(buffer[header + 1])
            case .acl:
                payloadLength = Int(buffer[header + 2]) | Int(buffer[header + 3]) << 8
            case .iso:
                payloadLength = Int(buffer[header + 2]) | Int(buffer[header + 3] & 0x3F) << 8
            }
            let total = 1 + type.headerLength + payloadLength
            guard available >= total else { return nil }
            let octets = Array(buffer[readIndex ..< readIndex + total])
            readIndex += total
            return try Packet(decoding: octets)
        }

        /// Forgets every buffered octet and any earlier framing failure, to start again at
        /// a packet boundary (e.g. after reopening the transport or resetting the controller).
        public mutating func reset() {
            buffer.removeAll(keepingCapacity: true)
            readIndex = 0
            failure = nil
        }
    }
}
