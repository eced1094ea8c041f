extension ATT {
    /// Error Response (Core 5.4, Vol 3, Part F, §3.4.1.1): a server's answer to a request
    /// it could not perform, naming the request's opcode, the handle involved and why.
    public struct ErrorResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/errorResponse`` (0x01).
        public static let opcode = Opcode.errorResponse

        /// The opcode of the request that failed.
        public var requestOpcodeInError: Opcode
        /// The handle that caused the error, or 0x0000 when no handle applies.
        public var attributeHandleInError: Handle
        /// Why the request failed.
        public var errorCode: ErrorCode

        /// An Error Response from its fields.
        public init(requestOpcodeInError: Opcode, attributeHandleInError: Handle, errorCode: ErrorCode) {
            self.requestOpcodeInError = requestOpcodeInError
            self.attributeHandleInError = attributeHandleInError
            self.errorCode = errorCode
        }

        /// Reads opcode, request opcode, handle and error code (5 octets).
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ErrorResponse.opcode")
            requestOpcodeInError = Opcode(rawValue: try reader.readUInt8("ATT.ErrorResponse.requestOpcodeInError"))
            attributeHandleInError = try reader.readUInt16("ATT.ErrorResponse.attributeHandleInError")
            errorCode = ErrorCode(rawValue: try reader.readUInt8("ATT.ErrorResponse.errorCode"))
        }

        /// Writes opcode, request opcode, handle and error code.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(requestOpcodeInError.rawValue)
            writer.write(attributeHandleInError)
            writer.write(errorCode.rawValue)
        }
    }
}
