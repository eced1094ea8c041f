import BLEHost
import BLEProfiles
import BLEWire
import Testing

@Suite("Health Thermometer Service")
struct HealthThermometerTests {
    @Test("36.4 °C with no options: flags 00, then the FLOAT 6C 01 00 FF")
    func celsius() throws {
        let bytes: [UInt8] = [0x00, 0x6C, 0x01, 0x00, 0xFF]
        #expect(TemperatureMeasurement(celsius: 36.4).encoded() == bytes)
        let decoded = try TemperatureMeasurement(decoding: bytes)
        #expect(decoded.unit == .celsius && decoded.temperature.doubleValue == 36.4)
        #expect(decoded.timestamp == nil && decoded.temperatureType == nil)
    }

    @Test("97.5 °F with a timestamp and a type: flags 07, CF 03 00 FF, E8 07 02 1D 0D 05 09, 02")
    func fahrenheitWithTimestampAndType() throws {
        let bytes: [UInt8] = [0x07, 0xCF, 0x03, 0x00, 0xFF, 0xE8, 0x07, 0x02, 0x1D, 0x0D, 0x05, 0x09, 0x02]
        let timestamp = try #require(DateTime(year: 2024, month: 2, day: 29, hours: 13, minutes: 5, seconds: 9))
        let measurement = TemperatureMeasurement(temperature: MedicalFloat32(97.5, fractionDigits: 1), unit: .fahrenheit,
                                                 timestamp: timestamp, temperatureType: .body)
        #expect(measurement.encoded() == bytes)
        #expect(try TemperatureMeasurement(decoding: bytes) == measurement)
        #expect(timestamp.description == "2024-02-29 13:05:09")
    }

    @Test("A NaN temperature (no valid reading) goes as FF FF 7F 00")
    func notANumber() throws {
        let measurement = TemperatureMeasurement(temperature: .special(.nan))
        #expect(measurement.encoded() == [0x00, 0xFF, 0xFF, 0x7F, 0x00])
        #expect(try TemperatureMeasurement(decoding: measurement.encoded()).temperature == .special(.nan))
    }

    @Test("Malformed measurements are refused: short FLOAT, missing timestamp, reserved flags, bad date, reserved type")
    func malformed() {
        let cases: [[UInt8]] = [
            [0x00, 0x6C, 0x01, 0x00], [0x02, 0x6C, 0x01, 0x00, 0xFF, 0xE8, 0x07], [0x08, 0x6C, 0x01, 0x00, 0xFF],
            [0x02, 0x6C, 0x01, 0x00, 0xFF, 0xE8, 0x07, 0x0D, 0x1D, 0x0D, 0x05, 0x09],
            [0x04, 0x6C, 0x01, 0x00, 0xFF, 0x0A], [0x04, 0x6C, 0x01, 0x00, 0xFF, 0x00],
            [0x00, 0x6C, 0x01, 0x00, 0xFF, 0x00],
        ]
        for bytes in cases {
            #expect(throws: WireError.self, "\(bytes)") { try TemperatureMeasurement(decoding: bytes) }
        }
    }

    @Test("Temperature type and measurement interval codecs")
    func typeAndInterval() throws {
        #expect(try TemperatureType(decoding: [0x09]) == .tympanum)
        #expect(throws: WireError.self) { try TemperatureType(decoding: [0x00]) }
        #expect(MeasurementInterval(seconds: 600).encoded() == [0x58, 0x02])
        #expect(try MeasurementInterval(decoding: [0x58, 0x02]).seconds == 600)
        #expect(throws: WireError.self) { try MeasurementInterval(decoding: [0x58]) }
    }

    @Test("The service: indicate-only measurement; a writeable interval gets indicate and a Valid Range descriptor")
    func definition() {
        let service = HealthThermometerService().definition
        #expect(service.uuid == BluetoothUUID(0x1809))
        #expect(service.characteristics.map(\.uuid)
            == [BluetoothUUID(0x2A1C), BluetoothUUID(0x2A1D), BluetoothUUID(0x2A1E), BluetoothUUID(0x2A21)])
        #expect(service.characteristics[0].properties == .indicate)
        #expect(service.characteristics[2].properties == .notify)
        #expect(service.characteristics[3].value == .stored([0x01, 0x00]))
        var writeable = HealthThermometerService(measurementIntervalIsWriteable: true, validIntervalRange: 1 ... 600)
        let interval = writeable.definition.characteristics[3]
        #expect(interval.properties == [.read, .write, .indicate])
        #expect(interval.descriptors == [GATTDescriptorDefinition(uuid: 0x2906, value: .stored([0x01, 0x00, 0x58, 0x02]))])
        #expect(writeable.validateMeasurementIntervalWrite([0x3C, 0x00]) == .success(MeasurementInterval(seconds: 60)))
        #expect(writeable.validateMeasurementIntervalWrite([0x00, 0x00]) == .success(MeasurementInterval(seconds: 0)))
        #expect(writeable.validateMeasurementIntervalWrite([0x59, 0x02]) == .failure(.outOfRange))
        #expect(writeable.validateMeasurementIntervalWrite([0x3C]) == .failure(.invalidAttributeValueLength))
        writeable.measurementIntervalIsWriteable = false
        #expect(writeable.validateMeasurementIntervalWrite([0x3C, 0x00]) == .failure(.writeNotPermitted))
    }
}
