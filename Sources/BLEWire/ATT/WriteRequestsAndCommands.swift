extension ATT {
    /// Write Request (Core 5.4, Vol 3, Part F, §3.4.5.1): write a value and wait for a
    /// Write Response.
    public struct WriteRequest: ATTHandleValuePDU, Sendable {
        /// ``ATT/Opcode/writeRequest`` (0x12).
        public static let opcode = Opcode.writeRequest

        /// The attribute to write.
        public var attributeHandle: Handle
        /// The new value, a view into the input.
        public var attributeValue: ArraySlice<UInt8>

        /// A request to write `attributeValue` to `attributeHandle`.
        public init(attributeHandle: Handle, attributeValue: ArraySlice<UInt8>) {
            self.attributeHandle = attributeHandle
            self.attributeValue = attributeValue
        }
    }

    /// Write Response (Core 5.4, Vol 3, Part F, §3.4.5.2): the write succeeded. Just the opcode.
    public struct WriteResponse: ATTOpcodeOnlyPDU, Sendable {
        /// ``ATT/Opcode/writeResponse`` (0x13).
        public static let opcode = Opcode.writeResponse

        /// The response (it has no fields).
        public init() {}
    }

    /// Write Command (Core 5.4, Vol 3, Part F, §3.4.5.3): write a value with no response
    /// (the server reports no error either).
    public struct WriteCommand: ATTHandleValuePDU, Sendable {
        /// ``ATT/Opcode/writeCommand`` (0x52).
        public static let opcode = Opcode.writeCommand

        /// The attribute to write.
        public var attributeHandle: Handle
        /// The new value, a view into the input.
        public var attributeValue: ArraySlice<UInt8>

        /// A command to write `attributeValue` to `attributeHandle`.
        public init(attributeHandle: Handle, attributeValue: ArraySlice<UInt8>) {
            self.attributeHandle = attributeHandle
            self.attributeValue = attributeValue
        }
    }

    /// The 12-octet Authentication Signature that ends a signed PDU (Core 5.4, Vol 3,
    /// Part F, §3.3.1, computed as in Part H, §2.4.5): the signer's SignCounter, then
    /// the 8-octet MAC.
    public struct AuthenticationSignature: Hashable, Sendable {
        /// The counter the signer incremented for this PDU, little-endian on the wire.
        public var signCounter: UInt32
        /// The 64-bit message authentication code, read little-endian from its 8 octets
        /// so that encoding gives back the octets as sent.
        public var messageAuthenticationCode: UInt64

        /// A signature from its fields.
        public init(signCounter: UInt32, messageAuthenticationCode: UInt64) {
            self.signCounter = signCounter
            self.messageAuthenticationCode = messageAuthenticationCode
        }
    }

    /// Signed Write Command (Core 5.4, Vol 3, Part F, §3.4.5.4): a Write Command on an
    /// unencrypted link, authenticated by a signature made with the CSRK.
    ///
    /// There is no length field, so the value is every octet between the handle and the
    /// last 12, which are the signature.
    public struct SignedWriteCommand: ATTPDU, Sendable {
        /// ``ATT/Opcode/signedWriteCommand`` (0xD2).
        public static let opcode = Opcode.signedWriteCommand

        /// The attribute to write.
        public var attributeHandle: Handle
        /// The new value, a view into the input.
        public var attributeValue: ArraySlice<UInt8>
        /// The signature over opcode, handle and value.
        public var authenticationSignature: AuthenticationSignature

        /// A signed command from its fields.
        public init(attributeHandle: Handle, attributeValue: ArraySlice<UInt8>, authenticationSignature: AuthenticationSignature) {
            self.attributeHandle = attributeHandle
            self.attributeValue = attributeValue
            self.authenticationSignature = authenticationSignature
        }

        /// Reads opcode and handle, then splits the rest into value and 12-octet signature.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.SignedWriteCommand.opcode")
            attributeHandle = try reader.readUInt16("ATT.SignedWriteCommand.attributeHandle")
            try reader.require(12, "ATT.SignedWriteCommand.authenticationSignature")
            attributeValue = try reader.readBytes(reader.remainingCount - 12, "ATT.SignedWriteCommand.attributeValue")
            let counter = try reader.readUInt32("ATT.SignedWriteCommand.authenticationSignature")
            let mac = try reader.readUInt64("ATT.SignedWriteCommand.authenticationSignature")
            authenticationSignature = AuthenticationSignature(signCounter: counter, messageAuthenticationCode: mac)
        }

        /// Writes opcode, handle, value and signature.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(attributeHandle)
            writer.write(contentsOf: attributeValue)
            writer.write(authenticationSignature.signCounter)
            writer.write(authenticationSignature.messageAuthenticationCode)
        }
    }
}
