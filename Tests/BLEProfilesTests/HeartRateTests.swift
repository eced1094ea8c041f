import BLEHost
import BLEProfiles
import BLEWire
import Testing

@Suite("Heart Rate Service")
struct HeartRateTests {
    @Test("72 bpm with contact detected and two RR-intervals: flags 16, 48, 0380, 0390")
    func uint8WithRRIntervals() throws {
        let bytes: [UInt8] = [0x16, 0x48, 0x80, 0x03, 0x90, 0x03]
        let measurement = try HeartRateMeasurement(decoding: bytes)
        #expect(measurement.heartRate == 72)
        #expect(measurement.sensorContact == .detected)
        #expect(measurement.energyExpended == nil)
        #expect(measurement.rrIntervals == [0x0380, 0x0390])
        #expect(HeartRateMeasurement.seconds(ofRRInterval: 0x0380) == 0.875)
        #expect(measurement.encoded() == bytes)
        #expect(HeartRateMeasurement(heartRate: 72, sensorContact: .detected,
                                     rrIntervals: [HeartRateMeasurement.rrInterval(seconds: 0.875), 0x0390]).encoded() == bytes)
    }

    @Test("A rate above 255 goes as uint16, with energy expended: flags 19, 012C, 0010, 0400")
    func uint16WithEnergy() throws {
        let bytes: [UInt8] = [0x19, 0x2C, 0x01, 0x10, 0x00, 0x00, 0x04]
        let measurement = HeartRateMeasurement(heartRate: 300, energyExpended: 16, rrIntervals: [1024])
        #expect(measurement.encoded() == bytes)
        let decoded = try HeartRateMeasurement(decoding: bytes)
        #expect(decoded.heartRate == 300 && decoded.energyExpended == 16 && decoded.rrIntervals == [1024])
        #expect(decoded.sensorContact == .notSupported)
    }

    @Test("A 16-bit value that fits in 8 bits stays 16-bit through a round trip")
    func sixteenBitKept() throws {
        let bytes: [UInt8] = [0x05, 0x48, 0x00]
        let decoded = try HeartRateMeasurement(decoding: bytes)
        #expect(decoded.usesSixteenBitValue && decoded.heartRate == 72 && decoded.sensorContact == .notDetected)
        #expect(decoded.encoded() == bytes)
    }

    @Test("Malformed measurements are refused: empty, truncated, missing or odd RR-intervals, reserved flags, left-over octets")
    func malformed() {
        let cases: [[UInt8]] = [[], [0x01, 0x48], [0x08, 0x48, 0x01], [0x10, 0x48], [0x10, 0x48, 0x80], [0x20, 0x48],
                                [0x00, 0x48, 0x00]]
        for bytes in cases {
            #expect(throws: WireError.self, "\(bytes)") { try HeartRateMeasurement(decoding: bytes) }
        }
    }

    @Test("A measurement too long for one notification splits, oldest RR-intervals first, energy in the first")
    func split() throws {
        let measurement = HeartRateMeasurement(heartRate: 60, energyExpended: 5, rrIntervals: Array(1 ... 12))
        let parts = measurement.split(maximumLength: 20)
        #expect(parts.count == 2)
        #expect(parts[0].encoded().count <= 20 && parts[1].encoded().count <= 20)
        #expect(parts[0].energyExpended == 5 && parts[1].energyExpended == nil)
        #expect(parts.flatMap(\.rrIntervals) == Array(1 ... 12))
        #expect(parts[0].rrIntervals == Array(1 ... 8))
        #expect(HeartRateMeasurement(heartRate: 60, rrIntervals: [1]).split(maximumLength: 20).count == 1)
    }

    @Test("The control point accepts 0x01 and answers anything else with 0x80 Control Point value not supported")
    func controlPoint() {
        #expect(HeartRateService.handleControlPoint([0x01]) == .success(.resetEnergyExpended))
        #expect(HeartRateService.handleControlPoint([0x02]) == .failure(.application(0x80)))
        #expect(HeartRateService.handleControlPoint([0x00]) == .failure(HeartRateControlPoint.valueNotSupported))
        #expect(HeartRateControlPoint.valueNotSupported.rawValue == 0x80)
        #expect(HeartRateService.handleControlPoint([]) == .failure(.invalidAttributeValueLength))
        #expect(HeartRateService.handleControlPoint([0x01, 0x00]) == .failure(.invalidAttributeValueLength))
        #expect(throws: WireError.self) { try HeartRateControlPoint(decoding: [0x02]) }
    }

    @Test("Body sensor location: 1 is chest, 7 and above are reserved")
    func bodySensorLocation() throws {
        #expect(try BodySensorLocation(decoding: [0x01]) == .chest)
        #expect(BodySensorLocation.earLobe.encoded() == [0x05])
        #expect(throws: WireError.self) { try BodySensorLocation(decoding: [0x07]) }
        #expect(throws: WireError.self) { try BodySensorLocation(decoding: [0x01, 0x01]) }
    }

    @Test("The service: notify-only measurement, readable location, writeable control point")
    func definition() {
        let service = HeartRateService().definition
        #expect(service.uuid == BluetoothUUID(0x180D))
        #expect(service.characteristics.map(\.uuid) == [BluetoothUUID(0x2A37), BluetoothUUID(0x2A38), BluetoothUUID(0x2A39)])
        #expect(service.characteristics[0].properties == .notify && service.characteristics[0].value == .dynamic)
        #expect(service.characteristics[1].value == .stored([0x01]))
        #expect(service.characteristics[2].properties == .write && service.characteristics[2].permissions == .writeable)
        let bare = HeartRateService(bodySensorLocation: nil, supportsEnergyExpended: false).definition
        #expect(bare.characteristics.map(\.uuid) == [BluetoothUUID(0x2A37)])
    }

    @Test("The simulator's RR-intervals fill about a second, and a reset zeroes energy expended")
    func simulator() throws {
        var simulator = HeartRateSimulator(seed: 7)
        var last = simulator.next()
        for _ in 0 ..< 200 { last = simulator.next() }
        let total = last.rrIntervals.reduce(0) { $0 + Int($1) }
        #expect(abs(total - 1024) < Int(last.rrIntervals[0]))
        #expect((40 ... 120).contains(last.heartRate))
        #expect(try HeartRateMeasurement(decoding: last.encoded()) == last)
        #expect(simulator.energyExpended > 0)
        simulator.apply(.resetEnergyExpended)
        #expect(simulator.energyExpended == 0)
        var again = HeartRateSimulator(seed: 7)
        var replay = again.next()
        for _ in 0 ..< 200 { replay = again.next() }
        #expect(replay == last)
    }
}
