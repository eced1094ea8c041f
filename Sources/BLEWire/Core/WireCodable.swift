/// A value with a wire form that is decoded totally: malformed input throws, never traps.
public protocol WireDecodable: Sendable {
    /// Reads the value's fields from `reader`, leaving the reader after the last one.
    ///
    /// Implementations throw ``WireError`` naming the field that was truncated or invalid.
    init(from reader: inout ByteReader) throws(WireError)
}

/// A value with a wire form that appends to a buffer.
public protocol WireEncodable: Sendable {
    /// Appends the value's wire form to `writer`.
    func encode(to writer: inout ByteWriter)

    /// How many octets ``encoded()`` should reserve, so encoding allocates once. Types
    /// whose size depends on a payload give an exact figure; the default suits small PDUs.
    var encodedCountEstimate: Int { get }
}

/// A value that both decodes and encodes; `decode(encode(x)) == x` for every value.
public typealias WireCodable = WireDecodable & WireEncodable

extension WireDecodable {
    /// Decodes a value that must span exactly `bytes`: trailing octets are an error.
    @inlinable
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        var reader = ByteReader(bytes)
        try self.init(from: &reader)
        try reader.expectEnd(wireTypeName(Self.self))
    }

    /// Decodes a value that must span exactly `bytes`: trailing octets are an error.
    @inlinable
    public init(decoding bytes: [UInt8]) throws(WireError) {
        try self.init(decoding: bytes[...])
    }
}

extension WireEncodable {
    /// 64 octets: enough for every fixed-size PDU of the specification.
    public var encodedCountEstimate: Int { 64 }

    /// The value's wire form as a new array.
    @inlinable
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: encodedCountEstimate)
        encode(to: &writer)
        return writer.bytes
    }

    /// Appends the value's wire form to `buffer`.
    @inlinable
    public func encode(appendingTo buffer: inout [UInt8]) {
        var writer = ByteWriter(appendingTo: buffer)
        buffer = []
        encode(to: &writer)
        buffer = writer.bytes
    }
}

/// The type's name as the specification's namespace spells it, e.g. `ATT.ReadRequest`,
/// for error messages.
@usableFromInline
func wireTypeName(_ type: Any.Type) -> String {
    let full = String(reflecting: type)
    return full.hasPrefix("BLEWire.") ? String(full.dropFirst("BLEWire.".count)) : full
}
