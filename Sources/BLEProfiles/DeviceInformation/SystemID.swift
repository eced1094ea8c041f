import BLEWire

/// System ID (GSS §3.216, characteristic 0x2A23): a 40-bit manufacturer-defined identifier
/// followed by the 24-bit IEEE Organizationally Unique Identifier, eight octets little-endian.
public struct SystemID: CharacteristicValue {
    /// The System ID characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A23

    /// The manufacturer-defined identifier (40 bits).
    public let manufacturerIdentifier: UInt64
    /// The IEEE OUI of the manufacturer (24 bits).
    public let organizationallyUniqueIdentifier: UInt32

    /// A System ID; `nil` when a field is wider than its bits.
    public init?(manufacturerIdentifier: UInt64, organizationallyUniqueIdentifier: UInt32) {
        guard manufacturerIdentifier < 1 << 40, organizationallyUniqueIdentifier < 1 << 24 else { return nil }
        self.manufacturerIdentifier = manufacturerIdentifier
        self.organizationallyUniqueIdentifier = organizationallyUniqueIdentifier
    }

    /// Decodes exactly eight octets.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        (manufacturerIdentifier, organizationallyUniqueIdentifier) = try ProfileDecoding.whole(bytes, "SystemID") {
            reader throws(WireError) in
            (try reader.readLittleEndian(octets: 5, "SystemID.manufacturerIdentifier"),
             try reader.readUInt24("SystemID.organizationallyUniqueIdentifier"))
        }
    }

    /// The eight octets.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 8)
        writer.writeLittleEndian(manufacturerIdentifier, octets: 5)
        writer.writeUInt24(organizationallyUniqueIdentifier)
        return writer.bytes
    }
}
