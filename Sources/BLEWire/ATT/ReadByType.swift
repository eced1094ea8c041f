extension ATT {
    /// Read By Type Request (Core 5.4, Vol 3, Part F, §3.4.4.1): the values of the
    /// attributes of one type within a handle range, e.g. to discover characteristics
    /// (type 0x2803) or to read a characteristic by UUID.
    public struct ReadByTypeRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/readByTypeRequest`` (0x08).
        public static let opcode = Opcode.readByTypeRequest

        /// The first handle of the range.
        public var startingHandle: Handle
        /// The last handle of the range (may be below the start; the server rejects it).
        public var endingHandle: Handle
        /// The type to read: sent in 2 octets when it has the 16-bit width, else in 16.
        public var attributeType: BluetoothUUID

        /// A request from its fields.
        public init(startingHandle: Handle, endingHandle: Handle, attributeType: BluetoothUUID) {
            self.startingHandle = startingHandle
            self.endingHandle = endingHandle
            self.attributeType = attributeType
        }

        /// Reads opcode, range and a 2- or 16-octet type.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadByTypeRequest.opcode")
            startingHandle = try reader.readUInt16("ATT.ReadByTypeRequest.startingHandle")
            endingHandle = try reader.readUInt16("ATT.ReadByTypeRequest.endingHandle")
            attributeType = try reader.readATTAttributeType("ATT.ReadByTypeRequest.attributeType")
        }

        /// Writes opcode, range and type.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(startingHandle)
            writer.write(endingHandle)
            writer.writeATTAttributeType(attributeType)
        }
    }

    /// Read By Type Response (Core 5.4, Vol 3, Part F, §3.4.4.2): handle and value pairs,
    /// every value of the same length, which the Length octet gives (2 + value length).
    public struct ReadByTypeResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/readByTypeResponse`` (0x09).
        public static let opcode = Opcode.readByTypeResponse

        /// One Attribute Data entry.
        public struct Entry: Hashable, Sendable {
            /// The attribute's handle.
            public var attributeHandle: Handle
            /// The attribute's value (possibly cut to fit ATT_MTU), a view into the input.
            public var attributeValue: ArraySlice<UInt8>

            /// An entry from its fields.
            public init(attributeHandle: Handle, attributeValue: ArraySlice<UInt8>) {
                self.attributeHandle = attributeHandle
                self.attributeValue = attributeValue
            }
        }

        /// The entries in handle order. A valid response has at least one, and all values
        /// have the length of the first (at most 253 octets); the encoder writes the Length
        /// octet from the first entry.
        public var attributeDataList: [Entry]

        /// A response from its entries.
        public init(attributeDataList: [Entry]) { self.attributeDataList = attributeDataList }

        /// Reads opcode, Length (at least 2) and one or more entries of that length.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadByTypeResponse.opcode")
            let length = Int(try reader.readUInt8("ATT.ReadByTypeResponse.length"))
            guard length >= 2 else {
                throw WireError(field: "ATT.ReadByTypeResponse.length", reason: .invalidValue(UInt64(length)))
            }
            let total = reader.remainingCount
            guard total > 0, total % length == 0 else {
                throw WireError(field: "ATT.ReadByTypeResponse.attributeDataList",
                                reason: .constraint("\(total) octets are not a positive whole number of \(length)-octet entries"))
            }
            var list: [Entry] = []
            list.reserveCapacity(total / length)
            while !reader.isAtEnd {
                let handle = try reader.readUInt16("ATT.ReadByTypeResponse.attributeHandle")
                let value = try reader.readBytes(length - 2, "ATT.ReadByTypeResponse.attributeValue")
                list.append(Entry(attributeHandle: handle, attributeValue: value))
            }
            attributeDataList = list
        }

        /// Writes opcode, Length (from the first entry) and the entries.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(UInt8(truncatingIfNeeded: 2 + (attributeDataList.first?.attributeValue.count ?? 0)))
            for entry in attributeDataList {
                writer.write(entry.attributeHandle)
                writer.write(contentsOf: entry.attributeValue)
            }
        }
    }
}
