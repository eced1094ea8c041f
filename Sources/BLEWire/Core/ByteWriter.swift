/// Appends encoded fields to a growable buffer.
///
/// Encoders write in the specification's field order; integers are little-endian
/// (Core 5.4, Vol 1, Part E, §2.2) unless a method says otherwise.
public struct ByteWriter: Sendable {
    /// The octets written so far.
    public var bytes: [UInt8]

    /// A writer that starts empty, with room for `capacity` octets.
    @inlinable
    public init(capacity: Int = 32) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A writer that appends to `bytes`.
    @inlinable
    public init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Octets written so far.
    @inlinable
    public var count: Int { bytes.count }

    /// Appends one octet.
    @inlinable
    public mutating func write(_ value: UInt8) { bytes.append(value) }

    /// Appends a signed octet.
    @inlinable
    public mutating func write(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }

    /// Appends a little-endian `UInt16`.
    @inlinable
    public mutating func write(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// Appends a little-endian `UInt32`.
    @inlinable
    public mutating func write(_ value: UInt32) { writeLittleEndian(UInt64(value), octets: 4) }

    /// Appends a little-endian `UInt64`.
    @inlinable
    public mutating func write(_ value: UInt64) { writeLittleEndian(value, octets: 8) }

    /// Appends a little-endian 128-bit value.
    @inlinable
    public mutating func write(_ value: UInt128) {
        writeLittleEndian(UInt64(truncatingIfNeeded: value), octets: 8)
        writeLittleEndian(UInt64(truncatingIfNeeded: value >> 64), octets: 8)
    }

    /// Appends the low `octets` octets of `value`, little-endian.
    @inlinable
    public mutating func writeLittleEndian(_ value: UInt64, octets: Int) {
        var remaining = value
        for _ in 0 ..< octets {
            bytes.append(UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        }
    }

    /// Appends a 24-bit little-endian value (the top octet of `value` is ignored).
    @inlinable
    public mutating func writeUInt24(_ value: UInt32) { writeLittleEndian(UInt64(value), octets: 3) }

    /// Appends a big-endian `UInt16` (beacon formats only).
    @inlinable
    public mutating func writeBigEndian(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends octets as they are.
    @inlinable
    public mutating func write<Octets: Sequence>(contentsOf octets: Octets) where Octets.Element == UInt8 {
        bytes.append(contentsOf: octets)
    }

    /// Appends a placeholder octet for a length that is known only after the body,
    /// and returns where it is; fill it with ``patchLength8(at:)``.
    @inlinable
    public mutating func reserveLength8() -> Int {
        bytes.append(0)
        return bytes.count - 1
    }

    /// Appends a placeholder little-endian `UInt16` length; fill it with ``patchLength16(at:)``.
    @inlinable
    public mutating func reserveLength16() -> Int {
        bytes.append(0)
        bytes.append(0)
        return bytes.count - 2
    }

    /// Writes at `index` the number of octets appended after the one-octet placeholder.
    @inlinable
    public mutating func patchLength8(at index: Int) {
        bytes[index] = UInt8(truncatingIfNeeded: bytes.count - index - 1)
    }

    /// Writes at `index` the number of octets appended after the two-octet placeholder.
    @inlinable
    public mutating func patchLength16(at index: Int) {
        let length = bytes.count - index - 2
        bytes[index] = UInt8(truncatingIfNeeded: length)
        bytes[index + 1] = UInt8(truncatingIfNeeded: length >> 8)
    }
}
