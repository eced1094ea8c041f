import BLEHost
import BLEWire

/// The Health Thermometer Service (HTS 1.0, service 0x1809): Temperature Measurement,
/// indicated (§3.1); optionally Temperature Type (§3.2), Intermediate Temperature, notified
/// (§3.3), and Measurement Interval (§3.4), readable and optionally writeable, with a Valid
/// Range descriptor when writeable.
///
/// The service is data: a runtime indicates ``TemperatureMeasurement/encoded()`` to
/// subscribers each measurement interval and passes interval writes to
/// ``validateMeasurementIntervalWrite(_:)``.
public struct HealthThermometerService: Hashable, Sendable {
    /// The Health Thermometer Service's UUID.
    public static let uuid: BluetoothUUID = 0x1809
    /// The Valid Range descriptor's UUID (GSS §3.240, 0x2906).
    public static let validRangeUUID: BluetoothUUID = 0x2906

    /// A fixed measurement site; `nil` leaves Temperature Type out (each measurement may
    /// then say where it was taken).
    public var temperatureType: TemperatureType?
    /// Whether Intermediate Temperature is present.
    public var hasIntermediateTemperature: Bool
    /// The measurement interval; `nil` leaves Measurement Interval out.
    public var measurementInterval: MeasurementInterval?
    /// Whether a client may write the interval; when set, the characteristic also indicates
    /// changes and carries a Valid Range descriptor (HTS §3.4.1, §3.4.2).
    public var measurementIntervalIsWriteable: Bool
    /// The intervals a client may write (HTS §3.4.2), in seconds; 0 is always allowed.
    public var validIntervalRange: ClosedRange<UInt16>

    /// A thermometer; body temperature, intermediate readings and a fixed 1-second interval by default.
    public init(temperatureType: TemperatureType? = .body, hasIntermediateTemperature: Bool = true,
                measurementInterval: MeasurementInterval? = MeasurementInterval(seconds: 1),
                measurementIntervalIsWriteable: Bool = false, validIntervalRange: ClosedRange<UInt16> = 1 ... 3600) {
        self.temperatureType = temperatureType
        self.hasIntermediateTemperature = hasIntermediateTemperature
        self.measurementInterval = measurementInterval
        self.measurementIntervalIsWriteable = measurementIntervalIsWriteable
        self.validIntervalRange = validIntervalRange
    }

    /// The Valid Range descriptor's value: lower then upper bound, each uint16.
    public var validRangeValue: [UInt8] {
        var writer = ByteWriter(capacity: 4)
        writer.write(validIntervalRange.lowerBound)
        writer.write(validIntervalRange.upperBound)
        return writer.bytes
    }

    /// The service definition.
    public var definition: GATTServiceDefinition {
        var characteristics = [
            GATTCharacteristicDefinition(uuid: TemperatureMeasurement.uuid, properties: .indicate, permissions: [], value: .dynamic),
        ]
        if let temperatureType {
            characteristics.append(GATTCharacteristicDefinition(uuid: TemperatureType.uuid, properties: .read, permissions: .readable,
                                                                value: .stored(temperatureType.encoded()), maximumLength: 1))
        }
        if hasIntermediateTemperature {
            characteristics.append(GATTCharacteristicDefinition(uuid: TemperatureMeasurement.intermediateUUID, properties: .notify,
                                                                permissions: [], value: .dynamic))
        }
        if let measurementInterval {
            characteristics.append(measurementIntervalIsWriteable
                ? GATTCharacteristicDefinition(uuid: MeasurementInterval.uuid, properties: [.read, .write, .indicate],
                                               permissions: .readWrite, value: .stored(measurementInterval.encoded()),
                                               maximumLength: 2, descriptors: [
                                                   GATTDescriptorDefinition(uuid: Self.validRangeUUID, value: .stored(validRangeValue)),
                                               ])
                : GATTCharacteristicDefinition(uuid: MeasurementInterval.uuid, properties: .read, permissions: .readable,
                                               value: .stored(measurementInterval.encoded()), maximumLength: 2))
        }
        return GATTServiceDefinition(uuid: Self.uuid, characteristics: characteristics)
    }

    /// Answers a client's write of the Measurement Interval: the new interval, or the error —
    /// Invalid Attribute Value Length (0x0D) unless two octets, Out of Range (0xFF, Core
    /// Specification Supplement Part B §1.2; HTS 1.0 §3.4.2.1) outside ``validIntervalRange``
    /// and not 0, Write Not Permitted (0x03) when the interval is not writeable.
    public func validateMeasurementIntervalWrite(_ value: [UInt8]) -> Result<MeasurementInterval, ATT.ErrorCode> {
        guard measurementInterval != nil, measurementIntervalIsWriteable else { return .failure(.writeNotPermitted) }
        guard let interval = try? MeasurementInterval(decoding: value) else { return .failure(.invalidAttributeValueLength) }
        guard interval.seconds == 0 || validIntervalRange.contains(interval.seconds) else { return .failure(.outOfRange) }
        return .success(interval)
    }
}
