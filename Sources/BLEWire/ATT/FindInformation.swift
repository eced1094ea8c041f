extension ATT {
    /// Find Information Request (Core 5.4, Vol 3, Part F, §3.4.3.1): the handles and types
    /// of the attributes in a range, used to discover characteristic descriptors.
    ///
    /// The range is two fields rather than a `ClosedRange` because a start above the end
    /// must decode: the server answers it with Invalid Handle.
    public struct FindInformationRequest: ATTPDU, Sendable {
        /// ``ATT/Opcode/findInformationRequest`` (0x04).
        public static let opcode = Opcode.findInformationRequest

        /// The first handle of the range.
        public var startingHandle: Handle
        /// The last handle of the range.
        public var endingHandle: Handle

        /// A request for the handles from `startingHandle` to `endingHandle`.
        public init(startingHandle: Handle, endingHandle: Handle) {
            self.startingHandle = startingHandle
            self.endingHandle = endingHandle
        }

        /// Reads opcode and the two handles.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.FindInformationRequest.opcode")
            startingHandle = try reader.readUInt16("ATT.FindInformationRequest.startingHandle")
            endingHandle = try reader.readUInt16("ATT.FindInformationRequest.endingHandle")
        }

        /// Writes opcode and the two handles.
        public func encode(to writer: inout ByteWriter) {
            writer.write(Self.opcode.rawValue)
            writer.write(startingHandle)
            writer.write(endingHandle)
        }
    }

    /// Find Information Response (Core 5.4, Vol 3, Part F, §3.4.3.2): handle and type pairs,
    /// all with 16-bit UUIDs (format 0x01) or all with 128-bit UUIDs (format 0x02).
    ///
    /// The format is not stored: it follows from the entries' UUID widths, so decoding
    /// and encoding give back the same octets. Entries whose types all have the 16-bit
    /// width are sent in format 0x01; otherwise every type is sent in 128 bits.
    public struct FindInformationResponse: ATTPDU, Sendable {
        /// ``ATT/Opcode/findInformationResponse`` (0x05).
        public static let opcode = Opcode.findInformationResponse

        /// The Format field: the width of every UUID in the response.
        public enum Format: UInt8, Hashable, Sendable {
            /// 0x01: handles with 16-bit Bluetooth UUIDs.
            case handlesAnd16BitUUIDs = 0x01
            /// 0x02: handles with 128-bit UUIDs.
            case handlesAnd128BitUUIDs = 0x02
        }

        /// One handle and the type of the attribute it names.
        public struct Entry: Hashable, Sendable {
            /// The attribute's handle.
            public var handle: Handle
            /// The attribute's type.
            public var attributeType: BluetoothUUID

            /// An entry from its fields.
            public init(handle: Handle, attributeType: BluetoothUUID) {
                self.handle = handle
                self.attributeType = attributeType
            }
        }

        /// The pairs in handle order; a valid response has at least one.
        public var entries: [Entry]

        /// A response from its entries.
        public init(entries: [Entry]) { self.entries = entries }

        /// The format the entries are sent in.
        public var format: Format {
            entries.allSatisfy { $0.attributeType.width == .bits16 } ? .handlesAnd16BitUUIDs : .handlesAnd128BitUUIDs
        }

        /// Reads opcode, format and one or more pairs; an empty list or a partial pair throws.
        public init(from reader: inout ByteReader) throws(WireError) {
            try reader.readATTOpcode(Self.opcode, "ATT.FindInformationResponse.opcode")
            let rawFormat = try reader.readUInt8("ATT.FindInformationResponse.format")
            guard let format = Format(rawValue: rawFormat) else {
                throw WireError(field: "ATT.FindInformationResponse.format", reason: .invalidValue(UInt64(rawFormat)))
            }
            let width: BluetoothUUID.Width = format == .handlesAnd16BitUUIDs ? .bits16 : .bits128
            let pairSize = 2 + width.octets
            guard !reader.isAtEnd else {
                throw WireError(field: "ATT.FindInformationResponse.information", reason: .constraint("at least one pair is required"))
            }
            guard reader.remainingCount % pairSize == 0 else {
                throw WireError(field: "ATT.FindInformationResponse.information",
                                reason: .constraint("\(reader.remainingCount) octets are not a whole number of \(pairSize)-octet pairs"))
            }
            var entries: [Entry] = []
            entries.reserveCapacity(reader.remainingCount / pairSize)
            while !reader.isAtEnd {
                let handle = try reader.readUInt16("ATT.FindInformationResponse.handle")
                let type = try BluetoothUUID(from: &reader, width: width, field: "ATT.FindInformationResponse.uuid")
                entries.append(Entry(handle: handle, attributeType: type))
            }
            self.entries = entries
        }

        /// Writes opcode, format and the pairs in that format.
        public func encode(to writer: inout ByteWriter) {
            let format = self.format
            writer.write(Self.opcode.rawValue)
            writer.write(format.rawValue)
            for entry in entries {
                writer.write(entry.handle)
                if format == .handlesAnd16BitUUIDs {
                    entry.attributeType.encode(to: &writer)
                } else {
                    writer.write(entry.attributeType.value)
                }
            }
        }
    }
}
