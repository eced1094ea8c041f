extension ByteReader {
    /// Reads a Set Of Handles that fills the rest of a PDU: two or more 16-bit handles
    /// (Core 5.4, Vol 3, Part F, §3.4.4.7 and §3.4.4.11).
    mutating func readATTSetOfHandles(_ field: String) throws(WireError) -> [ATT.Handle] {
        guard remainingCount >= 4, remainingCount % 2 == 0 else {
            throw WireError(field: field, reason: .constraint("\(remainingCount) octets are not two or more handles"))
        }
        var handles: [ATT.Handle] = []
        handles.reserveCapacity(remainingCount / 2)
        while !isAtEnd {
            handles.append(try readUInt16(field))
        }
        return handles
    }
}

extension ATT {
    /// Read Multiple Request (Core 5.4, Vol 3, Part F, §3.4.4.7): the values of two or more
    /// attributes of known, fixed length, answered in one response.
    public struct ReadMultipleRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/readMultipleRequest`` (0x0E).
        public static let opcode = Opcode.readMultipleRequest

        /// The handles to read; a valid request has at least two.
        public var setOfHandles: [Handle]

        /// A request for `setOfHandles`.
        public init(setOfHandles: [Handle]) { self.setOfHandles = setOfHandles }

        /// Reads opcode and two or more handles.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadMultipleRequest.opcode")
            setOfHandles = try reader.readATTSetOfHandles("ATT.ReadMultipleRequest.setOfHandles")
        }

        /// Writes opcode and handles.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            for handle in setOfHandles { writer.write(handle) }
        }
    }

    /// Read Multiple Response (Core 5.4, Vol 3, Part F, §3.4.4.8): the requested values
    /// concatenated without delimiters; only the client, which knows their lengths, can
    /// split them.
    public struct ReadMultipleResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/readMultipleResponse`` (0x0F).
        public static let opcode = Opcode.readMultipleResponse

        /// The concatenated values, a view into the input.
        public var setOfValues: ArraySlice<UInt8>

        /// A response carrying `setOfValues`.
        public init(setOfValues: ArraySlice<UInt8>) { self.setOfValues = setOfValues }

        /// Reads opcode, then takes the remaining octets as the values.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadMultipleResponse.opcode")
            setOfValues = reader.readRemaining()
        }

        /// Writes opcode and values.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(contentsOf: setOfValues)
        }
    }

    /// Read Multiple Variable Request (Core 5.4, Vol 3, Part F, §3.4.4.11): the values of
    /// two or more attributes, answered with each value's length.
    public struct ReadMultipleVariableRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/readMultipleVariableRequest`` (0x20).
        public static let opcode = Opcode.readMultipleVariableRequest

        /// The handles to read; a valid request has at least two.
        public var setOfHandles: [Handle]

        /// A request for `setOfHandles`.
        public init(setOfHandles: [Handle]) { self.setOfHandles = setOfHandles }

        /// Reads opcode and two or more handles.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadMultipleVariableRequest.opcode")
            setOfHandles = try reader.readATTSetOfHandles("ATT.ReadMultipleVariableRequest.setOfHandles")
        }

        /// Writes opcode and handles.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            for handle in setOfHandles { writer.write(handle) }
        }
    }

    /// Read Multiple Variable Response (Core 5.4, Vol 3, Part F, §3.4.4.12): a Length Value
    /// Tuple per requested attribute.
    ///
    /// The server stops at ATT_MTU − 1 octets of tuples, so the last tuple may be cut:
    /// its value may hold fewer octets than its length says, or only the first octet of
    /// its length field may be present. Both are kept as sent: a cut value is a tuple
    /// whose ``Tuple/isComplete`` is false, and a lone length octet is
    /// ``partialLengthOctet``. A cut can only be last; the decoder guarantees it.
    public struct ReadMultipleVariableResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/readMultipleVariableResponse`` (0x21).
        public static let opcode = Opcode.readMultipleVariableResponse

        /// One Length Value Tuple.
        public struct Tuple: Hashable, Sendable {
            /// The attribute value's full length, as the Value Length field says.
            public var valueLength: UInt16
            /// The value octets present: all of them, or fewer in a cut last tuple.
            public var attributeValue: ArraySlice<UInt8>

            /// A tuple from its fields; `attributeValue` should hold at most `valueLength` octets.
            public init(valueLength: UInt16, attributeValue: ArraySlice<UInt8>) {
                self.valueLength = valueLength
                self.attributeValue = attributeValue
            }

            /// A complete tuple for `attributeValue` (at most 65 535 octets).
            public init(attributeValue: ArraySlice<UInt8>) {
                self.init(valueLength: UInt16(truncatingIfNeeded: attributeValue.count), attributeValue: attributeValue)
            }

            /// Whether every octet of the value is present.
            public var isComplete: Bool { attributeValue.count >= Int(valueLength) }
        }

        /// The tuples in request order.
        public var lengthValueTuples: [Tuple]
        /// The first (low) octet of a Value Length field that ATT_MTU cut off, if any.
        public var partialLengthOctet: UInt8?

        /// A response from its tuples and, rarely, a cut-off length octet.
        public init(lengthValueTuples: [Tuple], partialLengthOctet: UInt8? = nil) {
            self.lengthValueTuples = lengthValueTuples
            self.partialLengthOctet = partialLengthOctet
        }

        /// Whether the response holds every octet of every value it mentions.
        public var isComplete: Bool {
            partialLengthOctet == nil && (lengthValueTuples.last?.isComplete ?? true)
        }

        /// Reads opcode and tuples up to the end; a cut last tuple is kept as described above.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.ReadMultipleVariableResponse.opcode")
            var tuples: [Tuple] = []
            var partial: UInt8?
            while !reader.isAtEnd {
                if reader.remainingCount == 1 {
                    partial = try reader.readUInt8("ATT.ReadMultipleVariableResponse.valueLength")
                    break
                }
                let length = try reader.readUInt16("ATT.ReadMultipleVariableResponse.valueLength")
                let available = min(Int(length), reader.remainingCount)
                let value = try reader.readBytes(available, "ATT.ReadMultipleVariableResponse.attributeValue")
                tuples.append(Tuple(valueLength: length, attributeValue: value))
            }
            lengthValueTuples = tuples
            partialLengthOctet = partial
        }

        /// Writes opcode, the tuples as given, then the partial length octet if any.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            for tuple in lengthValueTuples {
                writer.write(tuple.valueLength)
                writer.write(contentsOf: tuple.attributeValue)
            }
            if let partialLengthOctet { writer.write(partialLengthOctet) }
        }
    }
}
