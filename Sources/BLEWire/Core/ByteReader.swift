/// A cursor over received octets that never traps.
///
/// Every read checks the remaining length and throws ``WireError/Reason/truncated(needed:available:)``
/// naming the field, so decoders can be written as straight-line code. Multi-octet
/// integers are little-endian, as everywhere in the Bluetooth Core Specification
/// (Core 5.4, Vol 1, Part E, §2.2) unless a method says otherwise.
///
/// Payloads come back as `ArraySlice<UInt8>` views that share storage with the input,
/// so decoding a PDU does not copy its payload. Index a slice from its `startIndex`.
public struct ByteReader: Sendable {
    @usableFromInline let storage: ArraySlice<UInt8>
    /// Absolute index (in `storage`'s indices) of the next octet to read.
    @usableFromInline var position: Int

    /// A reader over `bytes`, starting at its first octet.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>) {
        storage = bytes
        position = bytes.startIndex
    }

    /// A reader over `bytes`, starting at its first octet.
    @inlinable
    public init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// Octets not yet read.
    @inlinable
    public var remainingCount: Int { storage.endIndex - position }

    /// Whether every octet has been read.
    @inlinable
    public var isAtEnd: Bool { position >= storage.endIndex }

    /// Throws unless at least `count` octets remain.
    @inlinable
    public func require(_ count: Int, _ field: @autoclosure () -> String) throws(WireError) {
        guard count >= 0, remainingCount >= count else {
            throw WireError(field: field(), reason: .truncated(needed: count, available: remainingCount))
        }
    }

    /// Throws ``WireError/Reason/trailingBytes(_:)`` unless every octet has been read.
    @inlinable
    public func expectEnd(_ field: @autoclosure () -> String) throws(WireError) {
        guard isAtEnd else {
            throw WireError(field: field(), reason: .trailingBytes(remainingCount))
        }
    }

    /// Reads one octet.
    @inlinable
    public mutating func readUInt8(_ field: @autoclosure () -> String) throws(WireError) -> UInt8 {
        guard position < storage.endIndex else {
            throw WireError(field: field(), reason: .truncated(needed: 1, available: 0))
        }
        let value = storage[position]
        position += 1
        return value
    }

    /// Reads a little-endian integer of `octets` octets (1 to 8) into a `UInt64`.
    @inlinable
    public mutating func readLittleEndian(octets: Int, _ field: @autoclosure () -> String) throws(WireError) -> UInt64 {
        try require(octets, field())
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for index in position ..< position + octets {
            value |= UInt64(storage[index]) << shift
            shift += 8
        }
        position += octets
        return value
    }

    /// Reads a little-endian `UInt16`.
    @inlinable
    public mutating func readUInt16(_ field: @autoclosure () -> String) throws(WireError) -> UInt16 {
        try require(2, field())
        let value = UInt16(storage[position]) | UInt16(storage[position + 1]) << 8
        position += 2
        return value
    }

    /// Reads a little-endian 24-bit integer.
    @inlinable
    public mutating func readUInt24(_ field: @autoclosure () -> String) throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readLittleEndian(octets: 3, field()))
    }

    /// Reads a little-endian `UInt32`.
    @inlinable
    public mutating func readUInt32(_ field: @autoclosure () -> String) throws(WireError) -> UInt32 {
        UInt32(truncatingIfNeeded: try readLittleEndian(octets: 4, field()))
    }

    /// Reads a little-endian `UInt64`.
    @inlinable
    public mutating func readUInt64(_ field: @autoclosure () -> String) throws(WireError) -> UInt64 {
        try readLittleEndian(octets: 8, field())
    }

    /// Reads a little-endian 128-bit value (keys, random numbers, 128-bit UUIDs).
    @inlinable
    public mutating func readUInt128(_ field: @autoclosure () -> String) throws(WireError) -> UInt128 {
        let low = try readLittleEndian(octets: 8, field())
        let high = try readLittleEndian(octets: 8, field())
        return UInt128(high) << 64 | UInt128(low)
    }

    /// Reads a big-endian `UInt16` (used by beacon formats, not by Bluetooth PDUs).
    @inlinable
    public mutating func readUInt16BigEndian(_ field: @autoclosure () -> String) throws(WireError) -> UInt16 {
        try require(2, field())
        let value = UInt16(storage[position]) << 8 | UInt16(storage[position + 1])
        position += 2
        return value
    }

    /// Reads a signed octet (RSSI, TX power).
    @inlinable
    public mutating func readInt8(_ field: @autoclosure () -> String) throws(WireError) -> Int8 {
        Int8(bitPattern: try readUInt8(field()))
    }

    /// Reads `count` octets as a view sharing the input's storage.
    @inlinable
    public mutating func readBytes(_ count: Int, _ field: @autoclosure () -> String) throws(WireError) -> ArraySlice<UInt8> {
        try require(count, field())
        let slice = storage[position ..< position + count]
        position += count
        return slice
    }

    /// Reads every remaining octet as a view sharing the input's storage.
    @inlinable
    public mutating func readRemaining() -> ArraySlice<UInt8> {
        let slice = storage[position...]
        position = storage.endIndex
        return slice
    }

    /// Splits off a reader over the next `count` octets and advances past them:
    /// for length-prefixed structures that must be decoded within their length.
    @inlinable
    public mutating func subReader(_ count: Int, _ field: @autoclosure () -> String) throws(WireError) -> ByteReader {
        ByteReader(try readBytes(count, field()))
    }
}
