import BLEWire

/// Temperature Measurement (GSS §3.225, characteristic 0x2A1C; HTS 1.0 §3.1), indicated by a
/// thermometer, and Intermediate Temperature (0x2A1E, HTS §3.3, notified while measuring),
/// which has the same format: a flags octet, the temperature as an IEEE 11073 FLOAT, then
/// optionally a Date Time timestamp and a Temperature Type.
///
/// Flags: bit 0 units (0 Celsius, 1 Fahrenheit); bit 1 time stamp present; bit 2
/// temperature type present; bits 3–7 reserved (a decoder refuses them).
public struct TemperatureMeasurement: CharacteristicValue {
    /// The Temperature Measurement characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A1C
    /// The Intermediate Temperature characteristic's UUID (same format).
    public static let intermediateUUID: BluetoothUUID = 0x2A1E

    /// The temperature's unit.
    public enum Unit: Hashable, Sendable {
        /// Degrees Celsius (flag bit 0 clear).
        case celsius
        /// Degrees Fahrenheit (flag bit 0 set).
        case fahrenheit
    }

    /// The temperature.
    public var temperature: MedicalFloat32
    /// Its unit.
    public var unit: Unit
    /// When it was measured.
    public var timestamp: DateTime?
    /// Where it was measured, when it varies between measurements (a fixed place is
    /// given by the Temperature Type characteristic instead, HTS §3.2).
    public var temperatureType: TemperatureType?

    /// A measurement with every field.
    public init(temperature: MedicalFloat32, unit: Unit = .celsius, timestamp: DateTime? = nil,
                temperatureType: TemperatureType? = nil) {
        self.temperature = temperature
        self.unit = unit
        self.timestamp = timestamp
        self.temperatureType = temperatureType
    }

    /// A measurement in degrees Celsius to one decimal place, as clinical thermometers report.
    public init(celsius: Double, timestamp: DateTime? = nil, temperatureType: TemperatureType? = nil) {
        self.init(temperature: MedicalFloat32(celsius, fractionDigits: 1), unit: .celsius, timestamp: timestamp,
                  temperatureType: temperatureType)
    }

    enum Flag {
        static let fahrenheit: UInt8 = 0x01
        static let timestamp: UInt8 = 0x02
        static let temperatureType: UInt8 = 0x04
        static let reserved: UInt8 = 0xF8
    }

    /// Decodes a measurement; refuses reserved flag bits, truncated or left-over octets,
    /// out-of-range date fields and reserved temperature types.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        var reader = ByteReader(bytes)
        let flags = try reader.readUInt8("TemperatureMeasurement.flags")
        guard flags & Flag.reserved == 0 else {
            throw WireError(field: "TemperatureMeasurement.flags", reason: .invalidValue(UInt64(flags)))
        }
        unit = flags & Flag.fahrenheit != 0 ? .fahrenheit : .celsius
        temperature = try MedicalFloat32(from: &reader, field: "TemperatureMeasurement.temperature")
        timestamp = flags & Flag.timestamp != 0 ? try DateTime(from: &reader, field: "TemperatureMeasurement.timestamp") : nil
        temperatureType = flags & Flag.temperatureType != 0
            ? try ProfileDecoding.enumeration(&reader, "TemperatureMeasurement.temperatureType", TemperatureType.init(rawValue:))
            : nil
        try reader.expectEnd("TemperatureMeasurement")
    }

    /// The flags octet this measurement is sent with.
    public var flags: UInt8 {
        (unit == .fahrenheit ? Flag.fahrenheit : 0) | (timestamp != nil ? Flag.timestamp : 0)
            | (temperatureType != nil ? Flag.temperatureType : 0)
    }

    /// The octets, as indicated (or notified, for Intermediate Temperature).
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 13)
        writer.write(flags)
        writer.write(temperature.bitPattern)
        timestamp?.encode(to: &writer)
        if let temperatureType { writer.write(temperatureType.rawValue) }
        return writer.bytes
    }
}
