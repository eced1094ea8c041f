extension ATT {
    /// Prepare Write Request (Core 5.4, Vol 3, Part F, §3.4.6.1): queue part of a value on
    /// the server, to be written by a later Execute Write Request (long and reliable writes).
    public struct PrepareWriteRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/prepareWriteRequest`` (0x16).
        public static let opcode = Opcode.prepareWriteRequest

        /// The attribute to write.
        public var attributeHandle: Handle
        /// Where in the value the part goes.
        public var valueOffset: UInt16
        /// The part of the value, a view into the input.
        public var partAttributeValue: ArraySlice<UInt8>

        /// A request from its fields.
        public init(attributeHandle: Handle, valueOffset: UInt16, partAttributeValue: ArraySlice<UInt8>) {
            self.attributeHandle = attributeHandle
            self.valueOffset = valueOffset
            self.partAttributeValue = partAttributeValue
        }

        /// Reads opcode, handle and offset, then takes the remaining octets as the part.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.PrepareWriteRequest.opcode")
            attributeHandle = try reader.readUInt16("ATT.PrepareWriteRequest.attributeHandle")
            valueOffset = try reader.readUInt16("ATT.PrepareWriteRequest.valueOffset")
            partAttributeValue = reader.readRemaining()
        }

        /// Writes opcode, handle, offset and part.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(attributeHandle)
            writer.write(valueOffset)
            writer.write(contentsOf: partAttributeValue)
        }
    }

    /// Prepare Write Response (Core 5.4, Vol 3, Part F, §3.4.6.2): the server echoes the
    /// queued fields so the client can check them (reliable writes).
    public struct PrepareWriteResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/prepareWriteResponse`` (0x17).
        public static let opcode = Opcode.prepareWriteResponse

        /// The attribute written.
        public var attributeHandle: Handle
        /// The offset queued.
        public var valueOffset: UInt16
        /// The part queued, a view into the input.
        public var partAttributeValue: ArraySlice<UInt8>

        /// A response from its fields.
        public init(attributeHandle: Handle, valueOffset: UInt16, partAttributeValue: ArraySlice<UInt8>) {
            self.attributeHandle = attributeHandle
            self.valueOffset = valueOffset
            self.partAttributeValue = partAttributeValue
        }

        /// Reads opcode, handle and offset, then takes the remaining octets as the part.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.PrepareWriteResponse.opcode")
            attributeHandle = try reader.readUInt16("ATT.PrepareWriteResponse.attributeHandle")
            valueOffset = try reader.readUInt16("ATT.PrepareWriteResponse.valueOffset")
            partAttributeValue = reader.readRemaining()
        }

        /// Writes opcode, handle, offset and part.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(attributeHandle)
            writer.write(valueOffset)
            writer.write(contentsOf: partAttributeValue)
        }
    }

    /// Execute Write Request (Core 5.4, Vol 3, Part F, §3.4.6.3): write or discard every
    /// prepared value of this client.
    public struct ExecuteWriteRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/executeWriteRequest`` (0x18).
        public static let opcode = Opcode.executeWriteRequest

        /// The Flags field; other values are reserved and rejected.
        public enum Flags: UInt8, Hashable, Sendable {
            /// 0x00: cancel all prepared writes.
            case cancelAllPreparedWrites = 0x00
            /// 0x01: immediately write all pending prepared values.
            case writeAllPendingPreparedValues = 0x01
        }

        /// Whether to write or cancel.
        public var flags: Flags

        /// A request with `flags`.
        public init(flags: Flags) { self.flags = flags }

        /// Reads opcode and flags; a reserved flags value throws.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ExecuteWriteRequest.opcode")
            let raw = try reader.readUInt8("ATT.ExecuteWriteRequest.flags")
            guard let flags = Flags(rawValue: raw) else {
                throw WireError(field: "ATT.ExecuteWriteRequest.flags", reason: .invalidValue(UInt64(raw)))
            }
            self.flags = flags
        }

        /// Writes opcode and flags.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(flags.rawValue)
        }
    }

    /// Execute Write Response (Core 5.4, Vol 3, Part F, §3.4.6.4): the queue was written or
    /// cancelled. Just the opcode.
    public struct ExecuteWriteResponse: ATTOpcodeOnlyPDU, Sendable {
        /// ``ATT/Opcode/executeWriteResponse`` (0x19).
        public static let opcode = Opcode.executeWriteResponse

        /// The response (it has no fields).
        public init() {}
    }
}
