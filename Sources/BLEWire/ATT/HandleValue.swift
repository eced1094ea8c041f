extension ATT {
    /// Handle Value Notification (Core 5.4, Vol 3, Part F, §3.4.7.1): a server pushes an
    /// attribute's value, unacknowledged.
    public struct HandleValueNotification: ATTHandleValuePDU, Sendable {
        /// ``ATT/Opcode/handleValueNotification`` (0x1B).
        public static let opcode = Opcode.handleValueNotification

        /// The attribute whose value this is.
        public var attributeHandle: Handle
        /// The value (possibly cut to ATT_MTU − 3), a view into the input.
        public var attributeValue: ArraySlice<UInt8>

        /// A notification from its fields.
        public init(attributeHandle: Handle, attributeValue: ArraySlice<UInt8>) {
            self.attributeHandle = attributeHandle
            self.attributeValue = attributeValue
        }
    }

    /// Handle Value Indication (Core 5.4, Vol 3, Part F, §3.4.7.2): a server pushes an
    /// attribute's value and waits for a Handle Value Confirmation.
    public struct HandleValueIndication: ATTHandleValuePDU, Sendable {
        /// ``ATT/Opcode/handleValueIndication`` (0x1D).
        public static let opcode = Opcode.handleValueIndication

        /// The attribute whose value this is.
        public var attributeHandle: Handle
        /// The value (possibly cut to ATT_MTU − 3), a view into the input.
        public var attributeValue: ArraySlice<UInt8>

        /// An indication from its fields.
        public init(attributeHandle: Handle, attributeValue: ArraySlice<UInt8>) {
            self.attributeHandle = attributeHandle
            self.attributeValue = attributeValue
        }
    }

    /// Handle Value Confirmation (Core 5.4, Vol 3, Part F, §3.4.7.3): the client received an
    /// indication. Just the opcode.
    public struct HandleValueConfirmation: ATTOpcodeOnlyPDU, Sendable {
        /// ``ATT/Opcode/handleValueConfirmation`` (0x1E).
        public static let opcode = Opcode.handleValueConfirmation

        /// The confirmation (it has no fields).
        public init() {}
    }

    /// Multiple Handle Value Notification (Core 5.4, Vol 3, Part F, §3.4.7.4): several
    /// values pushed at once, each as handle, 16-bit length and value.
    public struct MultipleHandleValueNotification: ATTPDU, Sendable {
        /// ``ATT/Opcode/multipleHandleValueNotification`` (0x23).
        public static let opcode = Opcode.multipleHandleValueNotification

        /// One Handle Length Value Tuple.
        public struct Tuple: Hashable, Sendable {
            /// The attribute whose value this is.
            public var attributeHandle: Handle
            /// The value (at most 65 535 octets; the Length field is written from it),
            /// a view into the input.
            public var attributeValue: ArraySlice<UInt8>

            /// A tuple from its fields.
            public init(attributeHandle: Handle, attributeValue: ArraySlice<UInt8>) {
                self.attributeHandle = attributeHandle
                self.attributeValue = attributeValue
            }
        }

        /// The tuples; a valid notification has at least two, and every value is whole
        /// (the server may not cut values in this PDU).
        public var handleLengthValueTuples: [Tuple]

        /// A notification from its tuples.
        public init(handleLengthValueTuples: [Tuple]) { self.handleLengthValueTuples = handleLengthValueTuples }

        /// Reads opcode and two or more tuples filling the PDU exactly.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.MultipleHandleValueNotification.opcode")
            var tuples: [Tuple] = []
            while !reader.isAtEnd {
                let handle = try reader.readUInt16("ATT.MultipleHandleValueNotification.attributeHandle")
                let length = try reader.readUInt16("ATT.MultipleHandleValueNotification.length")
                let value = try reader.readBytes(Int(length), "ATT.MultipleHandleValueNotification.attributeValue")
                tuples.append(Tuple(attributeHandle: handle, attributeValue: value))
            }
            guard tuples.count >= 2 else {
                throw WireError(field: "ATT.MultipleHandleValueNotification.handleLengthValueTuples",
                                reason: .constraint("at least two tuples are required, found \(tuples.count)"))
            }
            handleLengthValueTuples = tuples
        }

        /// Writes opcode and tuples.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            for tuple in handleLengthValueTuples {
                writer.write(tuple.attributeHandle)
                writer.write(UInt16(truncatingIfNeeded: tuple.attributeValue.count))
                writer.write(contentsOf: tuple.attributeValue)
            }
        }
    }
}
