/// Advertising data or scan response data: an ordered list of AD structures (Core 5.4,
/// Vol 3, Part C, §11; data types in the Core Specification Supplement v11, Part A, §1).
///
/// Each structure is a length octet, an AD Type octet and `length - 1` data octets.
/// Decoding keeps every structure in order, unknown types included, with its data as a
/// view into the input. A length octet of zero ends the significant part early (§11:
/// "the remaining octets are zero"); those padding octets are consumed and NOT kept, so
/// a decoded value re-encodes without them. A length that runs past the end throws.
///
/// Typed accessors (``flags``, ``localName``, ``serviceUUIDs``, …) read the first
/// matching structure and return `nil` when it is absent or its content is malformed;
/// ``validate()`` says which structure is malformed and why.
public struct AdvertisingData: WireCodable, Hashable, Sendable {
    /// The most octets legacy advertising and scan response data can hold (Core 5.4,
    /// Vol 4, Part E, §7.8.7): 31.
    public static let legacyMaximumLength = 31
    /// The most octets of advertising data an extended advertising set can hold (Core 5.4,
    /// Vol 4, Part E, §7.8.54, over several HCI commands): 1650.
    public static let extendedMaximumLength = 1650

    /// One AD structure: a type and its data (Core 5.4, Vol 3, Part C, §11, Figure 11.1).
    public struct Structure: WireCodable, Hashable, Sendable {
        /// The most data octets one structure can carry: the length octet counts the type
        /// octet too, so 255 − 1.
        public static let maximumDataLength = 254

        /// The AD Type.
        public var type: ADType
        /// The AD Data, a view into the decoded input.
        public var data: ArraySlice<UInt8>

        /// A structure of `type` carrying `data`.
        public init(type: ADType, data: ArraySlice<UInt8>) {
            self.type = type
            self.data = data
        }

        /// A structure of `type` carrying `data`.
        public init(type: ADType, data: [UInt8]) {
            self.init(type: type, data: data[...])
        }

        /// Octets the structure takes on the wire: length, type and data.
        public var encodedLength: Int { 2 + min(data.count, Structure.maximumDataLength) }

        /// Reads one non-empty structure; a zero length octet (the padding marker) is
        /// rejected here, since it carries no type. ``AdvertisingData`` handles it.
        public init(from reader: inout ByteReader) throws(WireError) {
            let length = Int(try reader.readUInt8("AdvertisingData.Structure.length"))
            guard length > 0 else {
                throw WireError(field: "AdvertisingData.Structure.length",
                                reason: .constraint("a zero length octet ends the data; it starts no structure"))
            }
            try self.init(length: length, from: &reader, field: "AdvertisingData.Structure")
        }

        /// Reads type and data after a non-zero length octet.
        init(length: Int, from reader: inout ByteReader, field: @autoclosure () -> String) throws(WireError) {
            guard reader.remainingCount >= length else {
                throw WireError(field: field() + ".length",
                                reason: .lengthMismatch(declared: length, actual: reader.remainingCount))
            }
            type = ADType(rawValue: try reader.readUInt8(field() + ".type"))
            data = try reader.readBytes(length - 1, field() + ".data")
        }

        /// Appends length, type and data. Data over 254 octets (only possible when built
        /// by hand) is cut at 254 so the length octet stays true; ``AdvertisingData/validate()``
        /// reports such structures.
        public func encode(to writer: inout ByteWriter) {
            let count = min(data.count, Structure.maximumDataLength)
            writer.write(UInt8(truncatingIfNeeded: count + 1))
            writer.write(type.rawValue)
            writer.write(contentsOf: data.prefix(count))
        }
    }

    /// The structures, in the order they appear.
    public var structures: [Structure]

    /// Advertising data made of `structures`, in order.
    public init(structures: [Structure]) { self.structures = structures }

    /// Advertising data made of `structures`, in order, e.g.
    /// `AdvertisingData([.flags([.leGeneralDiscoverable]), .completeLocalName("HR")])`.
    public init(_ structures: [Structure]) { self.structures = structures }

    /// Octets the data takes on the wire.
    public var encodedLength: Int { structures.reduce(0) { $0 + $1.encodedLength } }

    /// Reads structures until the input ends or a zero length octet marks the start of
    /// padding; the padding is consumed and not kept.
    public init(from reader: inout ByteReader) throws(WireError) {
        var structures: [Structure] = []
        while !reader.isAtEnd {
            let length = Int(try reader.readUInt8("AdvertisingData.structures[\(structures.count)].length"))
            if length == 0 {
                _ = reader.readRemaining()
                break
            }
            let index = structures.count
            structures.append(try Structure(length: length, from: &reader, field: "AdvertisingData.structures[\(index)]"))
        }
        self.structures = structures
    }

    /// Appends every structure in order, with no padding.
    public func encode(to writer: inout ByteWriter) {
        for structure in structures { structure.encode(to: &writer) }
    }

    /// The wire form, checked against the 31-octet budget of legacy advertising and scan
    /// response data; throws naming the budget when over it.
    public func encodedLegacy() throws(WireError) -> [UInt8] {
        try validateLength(maximum: AdvertisingData.legacyMaximumLength, kind: "legacy advertising")
        return encoded()
    }

    /// The wire form, checked against the 1650-octet budget of extended advertising.
    public func encodedExtended() throws(WireError) -> [UInt8] {
        try validateLength(maximum: AdvertisingData.extendedMaximumLength, kind: "extended advertising")
        return encoded()
    }

    /// Throws unless the data fits extended advertising's 1,650 octets.
    public func validateExtended() throws(WireError) {
        try validateLength(maximum: AdvertisingData.extendedMaximumLength, kind: "extended advertising")
    }

    /// Throws unless the data fits legacy advertising's 31 octets.
    public func validateLegacy() throws(WireError) {
        try validateLength(maximum: AdvertisingData.legacyMaximumLength, kind: "legacy advertising")
    }

    private func validateLength(maximum: Int, kind: String) throws(WireError) {
        for (index, structure) in structures.enumerated() where structure.data.count > Structure.maximumDataLength {
            throw WireError(field: "AdvertisingData.structures[\(index)] (\(structure.type))",
                            reason: .constraint("\(structure.data.count) data octets exceed the 254 one structure can hold"))
        }
        let length = encodedLength
        guard length <= maximum else {
            throw WireError(field: "AdvertisingData",
                            reason: .constraint("\(length) octets exceed the \(maximum)-octet \(kind) budget"))
        }
    }
}
