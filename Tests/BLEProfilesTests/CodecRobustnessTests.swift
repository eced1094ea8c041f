import BLEProfiles
import BLEWire
import Testing

@Suite("Profile codecs on arbitrary octets")
struct CodecRobustnessTests {
    /// Decodes `count` pseudo-random inputs of 0–24 octets; every one either throws a
    /// WireError or decodes to a value that survives an encode/decode round trip.
    func check<Value: CharacteristicValue>(_ type: Value.Type, count: Int = 3000) throws -> Int {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var decoded = 0
        for _ in 0 ..< count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 59) % 25
            var bytes: [UInt8] = []
            for index in 0 ..< length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Bias the first octet (often flags) towards small values so options get exercised.
                bytes.append(index == 0 ? UInt8(state >> 61) : UInt8(truncatingIfNeeded: state >> 33))
            }
            guard let value = try? Value(decoding: bytes) else { continue }
            decoded += 1
            #expect(try Value(decoding: value.encoded()) == value, "\(Value.self) \(bytes)")
        }
        return decoded
    }

    @Test("No input traps a decoder, and whatever decodes round-trips")
    func arbitraryOctets() throws {
        #expect(try check(HeartRateMeasurement.self) > 0)
        #expect(try check(TemperatureMeasurement.self) > 0)
        #expect(try check(MedicalFloat32.self) > 0)
        #expect(try check(MedicalFloat16.self) > 0)
        #expect(try check(BatteryLevel.self) > 0)
        #expect(try check(AlertLevel.self) > 0)
        #expect(try check(TxPowerLevel.self) >= 0)
        #expect(try check(BodySensorLocation.self) > 0)
        #expect(try check(HeartRateControlPoint.self) > 0)
        #expect(try check(TemperatureType.self) > 0)
        #expect(try check(MeasurementInterval.self) > 0)
        #expect(try check(LocalTimeInformation.self) >= 0)
        #expect(try check(CurrentTime.self) >= 0)
        #expect(try check(DateTime.self) >= 0)
        #expect(try check(SystemID.self) >= 0)
        #expect(try check(PnPID.self) >= 0)
    }
}
