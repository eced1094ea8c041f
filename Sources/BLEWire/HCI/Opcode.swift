extension HCI {
    /// A command opcode: a 6-bit Opcode Group Field and a 10-bit Opcode Command Field
    /// (Core 5.4, Vol 4, Part E, §5.4.1). Each command type names its own as `opcode`.
    public struct Opcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The 16-bit value as sent little-endian on the wire.
        public let rawValue: UInt16

        /// An opcode from its 16-bit value.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// An opcode from its group (OGF, 6 bits) and command (OCF, 10 bits) fields.
        public init(ogf: UInt8, ocf: UInt16) {
            rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x03FF)
        }

        /// The Opcode Group Field: 0x01 link control, 0x03 controller & baseband,
        /// 0x04 informational, 0x05 status, 0x08 LE controller, 0x3F vendor.
        public var ogf: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 10) }
        /// The Opcode Command Field.
        public var ocf: UInt16 { rawValue & 0x03FF }

        /// `0x200C`-style hex.
        public var description: String {
            let text = String(rawValue, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: 4 - text.count) + text
        }
    }
}
