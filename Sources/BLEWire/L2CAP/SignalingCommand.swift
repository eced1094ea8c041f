extension L2CAP {
    /// The code of a signaling command (Core 5.4, Vol 3, Part A, §4, Table 4.2). A struct
    /// so that an unknown code can be carried and answered with Command Reject.
    public struct SignalingCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code octet as sent.
        public let rawValue: UInt8

        /// A code from its octet.
        @inlinable
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// 0x01 Command Reject (§4.1).
        public static let commandReject = SignalingCode(rawValue: 0x01)
        /// 0x02 Connection Request (§4.2, BR/EDR only).
        public static let connectionRequest = SignalingCode(rawValue: 0x02)
        /// 0x03 Connection Response (§4.3, BR/EDR only).
        public static let connectionResponse = SignalingCode(rawValue: 0x03)
        /// 0x04 Configuration Request (§4.4, BR/EDR only).
        public static let configurationRequest = SignalingCode(rawValue: 0x04)
        /// 0x05 Configuration Response (§4.5, BR/EDR only).
        public static let configurationResponse = SignalingCode(rawValue: 0x05)
        /// 0x06 Disconnection Request (§4.6).
        public static let disconnectionRequest = SignalingCode(rawValue: 0x06)
        /// 0x07 Disconnection Response (§4.7).
        public static let disconnectionResponse = SignalingCode(rawValue: 0x07)
        /// 0x08 Echo Request (§4.8, BR/EDR only).
        public static let echoRequest = SignalingCode(rawValue: 0x08)
        /// 0x09 Echo Response (§4.9, BR/EDR only).
        public static let echoResponse = SignalingCode(rawValue: 0x09)
        /// 0x0A Information Request (§4.10, BR/EDR only).
        public static let informationRequest = SignalingCode(rawValue: 0x0A)
        /// 0x0B Information Response (§4.11, BR/EDR only).
        public static let informationResponse = SignalingCode(rawValue: 0x0B)
        /// 0x12 Connection Parameter Update Request (§4.20, LE only).
        public static let connectionParameterUpdateRequest = SignalingCode(rawValue: 0x12)
        /// 0x13 Connection Parameter Update Response (§4.21, LE only).
        public static let connectionParameterUpdateResponse = SignalingCode(rawValue: 0x13)
        /// 0x14 LE Credit Based Connection Request (§4.22, LE only).
        public static let leCreditBasedConnectionRequest = SignalingCode(rawValue: 0x14)
        /// 0x15 LE Credit Based Connection Response (§4.23, LE only).
        public static let leCreditBasedConnectionResponse = SignalingCode(rawValue: 0x15)
        /// 0x16 Flow Control Credit Indication (§4.24).
        public static let flowControlCreditIndication = SignalingCode(rawValue: 0x16)
        /// 0x17 Credit Based Connection Request (§4.25).
        public static let creditBasedConnectionRequest = SignalingCode(rawValue: 0x17)
        /// 0x18 Credit Based Connection Response (§4.26).
        public static let creditBasedConnectionResponse = SignalingCode(rawValue: 0x18)
        /// 0x19 Credit Based Reconfigure Request (§4.27).
        public static let creditBasedReconfigureRequest = SignalingCode(rawValue: 0x19)
        /// 0x1A Credit Based Reconfigure Response (§4.28).
        public static let creditBasedReconfigureResponse = SignalingCode(rawValue: 0x1A)

        /// `0x14`-style hex.
        public var description: String {
            let text = String(rawValue, radix: 16, uppercase: true)
            return "0x" + (text.count < 2 ? "0" : "") + text
        }
    }

    /// One signaling command as framed (Core 5.4, Vol 3, Part A, §4, Figure 4.3): code,
    /// identifier, a 16-bit data length and the data, not yet interpreted.
    ///
    /// Decoding this first succeeds whenever the framing is sound, so the host learns the
    /// identifier even when the data then fails to decode as the typed command, and can
    /// answer with a Command Reject carrying that identifier. On LE a C-frame carries
    /// exactly one command, so ``WireDecodable/init(decoding:)`` over the signaling
    /// channel's payload rejects octets after it.
    public struct SignalingCommand: WireCodable, Hashable, Sendable {
        /// What the command is.
        public var code: SignalingCode
        /// Matches a response to its request; 0x00 is invalid in a request but decodes.
        public var identifier: UInt8
        /// The command's data, a view into the input; its count is the Length field.
        public var data: ArraySlice<UInt8>

        /// A command from its fields (the data holds at most 65 535 octets).
        public init(code: SignalingCode, identifier: UInt8, data: ArraySlice<UInt8>) {
            self.code = code
            self.identifier = identifier
            self.data = data
        }

        /// Reads code, identifier and length, then exactly `length` octets of data.
        public init(from reader: inout ByteReader) throws(WireError) {
            code = SignalingCode(rawValue: try reader.readUInt8("L2CAP.SignalingCommand.code"))
            identifier = try reader.readUInt8("L2CAP.SignalingCommand.identifier")
            let length = Int(try reader.readUInt16("L2CAP.SignalingCommand.length"))
            guard reader.remainingCount >= length else {
                throw WireError(field: "L2CAP.SignalingCommand.length",
                                reason: .lengthMismatch(declared: length, actual: reader.remainingCount))
            }
            data = try reader.readBytes(length, "L2CAP.SignalingCommand.data")
        }

        /// Writes code, identifier, length and data.
        public func encode(to writer: inout ByteWriter) {
            writer.write(code.rawValue)
            writer.write(identifier)
            writer.write(UInt16(truncatingIfNeeded: data.count))
            writer.write(contentsOf: data)
        }
    }
}

/// The data field of one typed L2CAP signaling command (Core 5.4, Vol 3, Part A, §4).
///
/// The wire form is the data field alone, without the code, identifier and length,
/// which ``L2CAP/SignalingCommand`` frames; ``L2CAP/LESignalingCommand`` puts the two
/// together.
public protocol L2CAPSignalingData: WireCodable, Hashable {
    /// The code this command is sent with.
    static var code: L2CAP.SignalingCode { get }
}
