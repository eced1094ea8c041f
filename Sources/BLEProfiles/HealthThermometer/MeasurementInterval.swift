import BLEWire

/// Measurement Interval (GSS §3.150, characteristic 0x2A21; HTS 1.0 §3.4): seconds between
/// periodic measurements, uint16; 0 means no periodic measurement.
public struct MeasurementInterval: CharacteristicValue {
    /// The Measurement Interval characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A21

    /// Seconds between measurements; 0 for none.
    public var seconds: UInt16

    /// An interval of `seconds`.
    public init(seconds: UInt16) { self.seconds = seconds }

    /// Decodes exactly two octets.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        seconds = try ProfileDecoding.whole(bytes, "MeasurementInterval") { reader throws(WireError) in
            try reader.readUInt16("MeasurementInterval")
        }
    }

    /// The two octets.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 2)
        writer.write(seconds)
        return writer.bytes
    }
}
