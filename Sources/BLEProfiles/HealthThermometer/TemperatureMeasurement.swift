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

/// Temperature Type (GSS §3.226, characteristic 0x2A1D; HTS 1.0 §3.2): where on the body a
/// temperature is taken. 0 and 10–255 are reserved.
public enum TemperatureType: UInt8, CharacteristicValue, CaseIterable {
    /// The Temperature Type characteristic's UUID.
    public static let uuid: BluetoothUUID = 0x2A1D

    /// 1: armpit.
    case armpit = 1
    /// 2: body (general).
    case body = 2
    /// 3: ear (usually the ear lobe).
    case ear = 3
    /// 4: finger.
    case finger = 4
    /// 5: gastro-intestinal tract.
    case gastroIntestinalTract = 5
    /// 6: mouth.
    case mouth = 6
    /// 7: rectum.
    case rectum = 7
    /// 8: toe.
    case toe = 8
    /// 9: tympanum (ear drum).
    case tympanum = 9

    /// Decodes the one octet, refusing reserved values.
    public init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try ProfileDecoding.whole(bytes, "TemperatureType") { reader throws(WireError) in
            try ProfileDecoding.enumeration(&reader, "TemperatureType", TemperatureType.init(rawValue:))
        }
    }

    /// The one octet.
    public func encoded() -> [UInt8] { [rawValue] }
}

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
