extension L2CAP {
    /// A channel identifier, the local name of an L2CAP channel endpoint (Core 5.4, Vol 3,
    /// Part A, §2.1, Table 2.3 for LE).
    ///
    /// A struct rather than an enum because dynamically allocated CIDs are ordinary numbers
    /// and any value must survive decoding.
    public struct ChannelIdentifier: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The 16-bit value as sent little-endian.
        public let rawValue: UInt16

        /// A CID from its value.
        @inlinable
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 0x0000, the null identifier: never a valid destination; used in responses to
        /// mean "no channel".
        public static let null = ChannelIdentifier(rawValue: 0x0000)
        /// 0x0004, the Attribute Protocol fixed channel.
        public static let attributeProtocol = ChannelIdentifier(rawValue: 0x0004)
        /// 0x0005, the LE L2CAP signaling channel.
        public static let leSignaling = ChannelIdentifier(rawValue: 0x0005)
        /// 0x0006, the Security Manager Protocol fixed channel.
        public static let securityManager = ChannelIdentifier(rawValue: 0x0006)

        /// 0x0040–0x007F: the CIDs an LE device allocates for credit-based channels.
        public static let leDynamicRange: ClosedRange<UInt16> = 0x0040 ... 0x007F

        /// Whether the CID lies in ``leDynamicRange``.
        @inlinable
        public var isLEDynamic: Bool { rawValue >= 0x0040 && rawValue <= 0x007F }

        /// Orders CIDs by value, e.g. to allocate the lowest free dynamic CID.
        public static func < (lhs: ChannelIdentifier, rhs: ChannelIdentifier) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `0x0040`-style hex.
        public var description: String {
            let text = String(rawValue, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, 4 - text.count)) + text
        }
    }
}

extension ByteReader {
    /// Reads a little-endian channel identifier.
    @inlinable
    public mutating func readChannelIdentifier(_ field: @autoclosure () -> String) throws(WireError) -> L2CAP.ChannelIdentifier {
        L2CAP.ChannelIdentifier(rawValue: try readUInt16(field()))
    }
}

extension ByteWriter {
    /// Appends a channel identifier little-endian.
    @inlinable
    public mutating func write(_ channel: L2CAP.ChannelIdentifier) { write(channel.rawValue) }
}
