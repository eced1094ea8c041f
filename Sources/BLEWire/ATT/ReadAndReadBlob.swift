extension ATT {
    /// Read Request (Core 5.4, Vol 3, Part F, §3.4.4.3): the value of one attribute.
    public struct ReadRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/readRequest`` (0x0A).
        public static let opcode = Opcode.readRequest

        /// The attribute to read.
        public var attributeHandle: Handle

        /// A request for the attribute at `attributeHandle`.
        public init(attributeHandle: Handle) { self.attributeHandle = attributeHandle }

        /// Reads opcode and handle.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadRequest.opcode")
            attributeHandle = try reader.readUInt16("ATT.ReadRequest.attributeHandle")
        }

        /// Writes opcode and handle.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(attributeHandle)
        }
    }

    /// Read Response (Core 5.4, Vol 3, Part F, §3.4.4.4): the value, or its first
    /// ATT_MTU − 1 octets when it is longer (the client continues with Read Blob).
    public struct ReadResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/readResponse`` (0x0B).
        public static let opcode = Opcode.readResponse

        /// The value octets, a view into the input.
        public var attributeValue: ArraySlice<UInt8>

        /// A response carrying `attributeValue`.
        public init(attributeValue: ArraySlice<UInt8>) { self.attributeValue = attributeValue }

        /// Reads opcode, then takes the remaining octets as the value.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadResponse.opcode")
            attributeValue = reader.readRemaining()
        }

        /// Writes opcode and value.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(contentsOf: attributeValue)
        }
    }

    /// Read Blob Request (Core 5.4, Vol 3, Part F, §3.4.4.5): part of a long value, from
    /// an offset.
    public struct ReadBlobRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/readBlobRequest`` (0x0C).
        public static let opcode = Opcode.readBlobRequest

        /// The attribute to read.
        public var attributeHandle: Handle
        /// The offset of the first octet to read.
        public var valueOffset: UInt16

        /// A request for the value of `attributeHandle` from `valueOffset`.
        public init(attributeHandle: Handle, valueOffset: UInt16) {
            self.attributeHandle = attributeHandle
            self.valueOffset = valueOffset
        }

        /// Reads opcode, handle and offset.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadBlobRequest.opcode")
            attributeHandle = try reader.readUInt16("ATT.ReadBlobRequest.attributeHandle")
            valueOffset = try reader.readUInt16("ATT.ReadBlobRequest.valueOffset")
        }

        /// Writes opcode, handle and offset.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(attributeHandle)
            writer.write(valueOffset)
        }
    }

    /// Read Blob Response (Core 5.4, Vol 3, Part F, §3.4.4.6): the part of the value from
    /// the requested offset, up to ATT_MTU − 1 octets.
    public struct ReadBlobResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/readBlobResponse`` (0x0D).
        public static let opcode = Opcode.readBlobResponse

        /// The value octets from the offset, a view into the input.
        public var partAttributeValue: ArraySlice<UInt8>

        /// A response carrying `partAttributeValue`.
        public init(partAttributeValue: ArraySlice<UInt8>) { self.partAttributeValue = partAttributeValue }

        /// Reads opcode, then takes the remaining octets as the part value.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadBlobResponse.opcode")
            partAttributeValue = reader.readRemaining()
        }

        /// Writes opcode and part value.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(contentsOf: partAttributeValue)
        }
    }
}
