extension ATT {
    /// Find By Type Value Request (Core 5.4, Vol 3, Part F, §3.4.3.3): the handles of the
    /// attributes in a range with a given 16-bit type and value, e.g. to discover a
    /// primary service by UUID.
    public struct FindByTypeValueRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/findByTypeValueRequest`` (0x06).
        public static let opcode = Opcode.findByTypeValueRequest

        /// The first handle of the range.
        public var startingHandle: Handle
        /// The last handle of the range (may be below the start; the server rejects it).
        public var endingHandle: Handle
        /// The attribute type to match, always a 16-bit UUID in this PDU.
        public var attributeType: UInt16
        /// The value to match: the rest of the PDU.
        public var attributeValue: ArraySlice<UInt8>

        /// A request from its fields.
        public init(startingHandle: Handle, endingHandle: Handle, attributeType: UInt16, attributeValue: ArraySlice<UInt8>) {
            self.startingHandle = startingHandle
            self.endingHandle = endingHandle
            self.attributeType = attributeType
            self.attributeValue = attributeValue
        }

        /// Reads opcode, range, type, then takes the remaining octets as the value.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.FindByTypeValueRequest.opcode")
            startingHandle = try reader.readUInt16("ATT.FindByTypeValueRequest.startingHandle")
            endingHandle = try reader.readUInt16("ATT.FindByTypeValueRequest.endingHandle")
            attributeType = try reader.readUInt16("ATT.FindByTypeValueRequest.attributeType")
            attributeValue = reader.readRemaining()
        }

        /// Writes opcode, range, type and value.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(startingHandle)
            writer.write(endingHandle)
            writer.write(attributeType)
            writer.write(contentsOf: attributeValue)
        }
    }

    /// Find By Type Value Response (Core 5.4, Vol 3, Part F, §3.4.3.4): for each match, its
    /// handle and the last handle of its group.
    public struct FindByTypeValueResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/findByTypeValueResponse`` (0x07).
        public static let opcode = Opcode.findByTypeValueResponse

        /// One Handles Information entry.
        public struct HandlesInformation: Hashable, Sendable {
            /// The handle of the matching attribute.
            public var foundAttributeHandle: Handle
            /// The last handle of its group (equal to the found handle for a non-grouping type).
            public var groupEndHandle: Handle

            /// An entry from its fields.
            public init(foundAttributeHandle: Handle, groupEndHandle: Handle) {
                self.foundAttributeHandle = foundAttributeHandle
                self.groupEndHandle = groupEndHandle
            }
        }

        /// The matches in handle order; a valid response has at least one.
        public var handlesInformationList: [HandlesInformation]

        /// A response from its entries.
        public init(handlesInformationList: [HandlesInformation]) {
            self.handlesInformationList = handlesInformationList
        }

        /// Reads opcode and one or more 4-octet entries.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.FindByTypeValueResponse.opcode")
            guard !reader.isAtEnd else {
                throw WireError(field: "ATT.FindByTypeValueResponse.handlesInformationList",
                                reason: .constraint("at least one entry is required"))
            }
            guard reader.remainingCount % 4 == 0 else {
                throw WireError(field: "ATT.FindByTypeValueResponse.handlesInformationList",
                                reason: .constraint("\(reader.remainingCount) octets are not a whole number of 4-octet entries"))
            }
            var list: [HandlesInformation] = []
            list.reserveCapacity(reader.remainingCount / 4)
            while !reader.isAtEnd {
                let found = try reader.readUInt16("ATT.FindByTypeValueResponse.foundAttributeHandle")
                let end = try reader.readUInt16("ATT.FindByTypeValueResponse.groupEndHandle")
                list.append(HandlesInformation(foundAttributeHandle: found, groupEndHandle: end))
            }
            handlesInformationList = list
        }

        /// Writes opcode and the entries.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            for entry in handlesInformationList {
                writer.write(entry.foundAttributeHandle)
                writer.write(entry.groupEndHandle)
            }
        }
    }
}
