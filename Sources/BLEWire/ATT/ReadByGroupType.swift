extension ATT {
    /// Read By Group Type Request (Core 5.4, Vol 3, Part F, §3.4.4.9): the grouping
    /// attributes of one type within a range, used to discover all primary services
    /// (type 0x2800).
    public struct ReadByGroupTypeRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/readByGroupTypeRequest`` (0x10).
        public static let opcode = Opcode.readByGroupTypeRequest

        /// The first handle of the range.
        public var startingHandle: Handle
        /// The last handle of the range (may be below the start; the server rejects it).
        public var endingHandle: Handle
        /// The grouping type: sent in 2 octets when it has the 16-bit width, else in 16.
        public var attributeGroupType: BluetoothUUID

        /// A request from its fields.
        public init(startingHandle: Handle, endingHandle: Handle, attributeGroupType: BluetoothUUID) {
            self.startingHandle = startingHandle
            self.endingHandle = endingHandle
            self.attributeGroupType = attributeGroupType
        }

        /// Reads opcode, range and a 2- or 16-octet type.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadByGroupTypeRequest.opcode")
            startingHandle = try reader.readUInt16("ATT.ReadByGroupTypeRequest.startingHandle")
            endingHandle = try reader.readUInt16("ATT.ReadByGroupTypeRequest.endingHandle")
            attributeGroupType = try reader.readATTAttributeType("ATT.ReadByGroupTypeRequest.attributeGroupType")
        }

        /// Writes opcode, range and type.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(startingHandle)
            writer.write(endingHandle)
            writer.writeATTAttributeType(attributeGroupType)
        }
    }

    /// Read By Group Type Response (Core 5.4, Vol 3, Part F, §3.4.4.10): for each group, its
    /// handle, its end group handle and its value, all values of the length the Length
    /// octet gives (4 + value length).
    public struct ReadByGroupTypeResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/readByGroupTypeResponse`` (0x11).
        public static let opcode = Opcode.readByGroupTypeResponse

        /// One Attribute Data entry.
        public struct Entry: Hashable, Sendable {
            /// The handle of the grouping attribute.
            public var attributeHandle: Handle
            /// The last handle of the group.
            public var endGroupHandle: Handle
            /// The grouping attribute's value (e.g. a service UUID), a view into the input.
            public var attributeValue: ArraySlice<UInt8>

            /// An entry from its fields.
            public init(attributeHandle: Handle, endGroupHandle: Handle, attributeValue: ArraySlice<UInt8>) {
                self.attributeHandle = attributeHandle
                self.endGroupHandle = endGroupHandle
                self.attributeValue = attributeValue
            }
        }

        /// The entries in handle order. A valid response has at least one, and all values
        /// have the length of the first (at most 251 octets); the encoder writes the Length
        /// octet from the first entry.
        public var attributeDataList: [Entry]

        /// A response from its entries.
        public init(attributeDataList: [Entry]) { self.attributeDataList = attributeDataList }

        /// Reads opcode, Length (at least 4) and one or more entries of that length.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadByGroupTypeResponse.opcode")
            let length = Int(try reader.readUInt8("ATT.ReadByGroupTypeResponse.length"))
            guard length >= 4 else {
                throw WireError(field: "ATT.ReadByGroupTypeResponse.length", reason: .invalidValue(UInt64(length)))
            }
            let total = reader.remainingCount
            guard total > 0, total % length == 0 else {
                throw WireError(field: "ATT.ReadByGroupTypeResponse.attributeDataList",
                                reason: .constraint("\(total) octets are not a positive whole number of \(length)-octet entries"))
            }
            var list: [Entry] = []
            list.reserveCapacity(total / length)
            while !reader.isAtEnd {
                let handle = try reader.readUInt16("ATT.ReadByGroupTypeResponse.attributeHandle")
                let end = try reader.readUInt16("ATT.ReadByGroupTypeResponse.endGroupHandle")
                let value = try reader.readBytes(length - 4, "ATT.ReadByGroupTypeResponse.attributeValue")
                list.append(Entry(attributeHandle: handle, endGroupHandle: end, attributeValue: value))
            }
            attributeDataList = list
        }

        /// Writes opcode, Length (from the first entry) and the entries.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(UInt8(truncatingIfNeeded: 4 + (attributeDataList.first?.attributeValue.count ?? 0)))
            for entry in attributeDataList {
                writer.write(entry.attributeHandle)
                writer.write(entry.endGroupHandle)
                writer.write(contentsOf: entry.attributeValue)
            }
        }
    }
}
