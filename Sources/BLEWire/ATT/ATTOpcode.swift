extension ATT {
    /// An attribute handle (Core 5.4, Vol 3, Part F, §3.2.2): the 16-bit index of an
    /// attribute on a server. 0x0000 is reserved and never names an attribute, but it
    /// still decodes so a server can answer it with Invalid Handle.
    public typealias Handle = UInt16

    /// The first octet of every ATT PDU (Core 5.4, Vol 3, Part F, §3.3.1): a 6-bit method,
    /// a command flag (bit 6) and an authentication-signature flag (bit 7).
    ///
    /// A struct rather than an enum so that any octet can be carried, e.g. to answer an
    /// unknown request with Request Not Supported naming its opcode.
    public struct Opcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The opcode octet as sent.
        public let rawValue: UInt8

        /// An opcode from its octet.
        @inlinable
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The method, bits 0–5: which operation the PDU performs.
        @inlinable
        public var method: UInt8 { rawValue & 0x3F }

        /// Bit 6, the command flag: the PDU is a command, which gets no response and
        /// which a server ignores when it does not support it (§3.3.1).
        @inlinable
        public var isCommand: Bool { rawValue & 0x40 != 0 }

        /// Bit 7, the authentication signature flag: the PDU ends with a 12-octet
        /// Authentication Signature (§3.3.1).
        @inlinable
        public var hasAuthenticationSignature: Bool { rawValue & 0x80 != 0 }

        /// Error Response (§3.4.1.1).
        public static let errorResponse = Opcode(rawValue: 0x01)
        /// Exchange MTU Request (§3.4.2.1).
        public static let exchangeMTURequest = Opcode(rawValue: 0x02)
        /// Exchange MTU Response (§3.4.2.2).
        public static let exchangeMTUResponse = Opcode(rawValue: 0x03)
        /// Find Information Request (§3.4.3.1).
        public static let findInformationRequest = Opcode(rawValue: 0x04)
        /// Find Information Response (§3.4.3.2).
        public static let findInformationResponse = Opcode(rawValue: 0x05)
        /// Find By Type Value Request (§3.4.3.3).
        public static let findByTypeValueRequest = Opcode(rawValue: 0x06)
        /// Find By Type Value Response (§3.4.3.4).
        public static let findByTypeValueResponse = Opcode(rawValue: 0x07)
        /// Read By Type Request (§3.4.4.1).
        public static let readByTypeRequest = Opcode(rawValue: 0x08)
        /// Read By Type Response (§3.4.4.2).
        public static let readByTypeResponse = Opcode(rawValue: 0x09)
        /// Read Request (§3.4.4.3).
        public static let readRequest = Opcode(rawValue: 0x0A)
        /// Read Response (§3.4.4.4).
        public static let readResponse = Opcode(rawValue: 0x0B)
        /// Read Blob Request (§3.4.4.5).
        public static let readBlobRequest = Opcode(rawValue: 0x0C)
        /// Read Blob Response (§3.4.4.6).
        public static let readBlobResponse = Opcode(rawValue: 0x0D)
        /// Read Multiple Request (§3.4.4.7).
        public static let readMultipleRequest = Opcode(rawValue: 0x0E)
        /// Read Multiple Response (§3.4.4.8).
        public static let readMultipleResponse = Opcode(rawValue: 0x0F)
        /// Read By Group Type Request (§3.4.4.9).
        public static let readByGroupTypeRequest = Opcode(rawValue: 0x10)
        /// Read By Group Type Response (§3.4.4.10).
        public static let readByGroupTypeResponse = Opcode(rawValue: 0x11)
        /// Write Request (§3.4.5.1).
        public static let writeRequest = Opcode(rawValue: 0x12)
        /// Write Response (§3.4.5.2).
        public static let writeResponse = Opcode(rawValue: 0x13)
        /// Prepare Write Request (§3.4.6.1).
        public static let prepareWriteRequest = Opcode(rawValue: 0x16)
        /// Prepare Write Response (§3.4.6.2).
        public static let prepareWriteResponse = Opcode(rawValue: 0x17)
        /// Execute Write Request (§3.4.6.3).
        public static let executeWriteRequest = Opcode(rawValue: 0x18)
        /// Execute Write Response (§3.4.6.4).
        public static let executeWriteResponse = Opcode(rawValue: 0x19)
        /// Handle Value Notification (§3.4.7.1).
        public static let handleValueNotification = Opcode(rawValue: 0x1B)
        /// Handle Value Indication (§3.4.7.2).
        public static let handleValueIndication = Opcode(rawValue: 0x1D)
        /// Handle Value Confirmation (§3.4.7.3).
        public static let handleValueConfirmation = Opcode(rawValue: 0x1E)
        /// Read Multiple Variable Request (§3.4.4.11).
        public static let readMultipleVariableRequest = Opcode(rawValue: 0x20)
        /// Read Multiple Variable Response (§3.4.4.12).
        public static let readMultipleVariableResponse = Opcode(rawValue: 0x21)
        /// Multiple Handle Value Notification (§3.4.7.4).
        public static let multipleHandleValueNotification = Opcode(rawValue: 0x23)
        /// Write Command (§3.4.5.3): Write Request's method with the command flag.
        public static let writeCommand = Opcode(rawValue: 0x52)
        /// Signed Write Command (§3.4.5.4): Write Command with the signature flag.
        public static let signedWriteCommand = Opcode(rawValue: 0xD2)

        /// `0x52`-style hex.
        public var description: String {
            let text = String(rawValue, radix: 16, uppercase: true)
            return "0x" + (text.count < 2 ? "0" : "") + text
        }
    }
}

/// An Attribute Protocol PDU whose wire form starts with its opcode octet
/// (Core 5.4, Vol 3, Part F, §3.3): decoders check the opcode and throw
/// ``WireError/Reason/invalidValue(_:)`` on another one.
public protocol ATTPDU: WireCodable, Hashable {
    /// The opcode this PDU type is sent with.
    static var opcode: ATT.Opcode { get }
}

extension ByteReader {
    /// Reads the opcode octet of an ATT PDU and checks that it is `expected`.
    mutating func readATTOpcode(_ expected: ATT.Opcode, _ field: @autoclosure () -> String) throws(WireError) {
        let raw = try readUInt8(field())
        guard raw == expected.rawValue else {
            throw WireError(field: field(), reason: .invalidValue(UInt64(raw)))
        }
    }
}
