import BLEHost
import BLEProfiles
import BLEWire
import Testing

/// The dynamic values a profile peripheral answers, without a host.
@Suite("Dynamic values of published standard services")
struct ProfileValuesTests {
    static let services: [StandardService] = [.heartRate, .healthThermometer, .currentTime, .battery]

    private func values(seed: UInt64 = 7) throws -> (ProfileValues, GATTDatabase) {
        let database = try GATTDatabase(services: Self.services.map(\.defaultDefinition))
        return (ProfileValues(services: Self.services, database: database, seed: seed), database)
    }

    @Test("The control point accepts 0x01, which resets Energy Expended, and answers 0x80 to 0x02 and 0x0D to two octets")
    func controlPoint() throws {
        var (values, database) = try values()
        let handle = try #require(database.valueHandle(of: HeartRateControlPoint.uuid))
        for _ in 0 ..< 400 { _ = values.nextHeartRateMeasurement() }
        #expect(values.heartRate.energyExpended > 0)
        #expect(values.write([0x02], to: handle) == .failure(.application(0x80)))
        #expect(values.write([0x01, 0x00], to: handle) == .failure(.invalidAttributeValueLength))
        #expect(values.heartRate.energyExpended > 0)
        #expect(values.write([0x01], to: handle) == .success([]))
        #expect(values.heartRate.energyExpended == 0)
    }

    @Test("Heart Rate Measurements come on the measurement's handle, decode, and repeat from the seed")
    func measurements() throws {
        var (first, database) = try values(seed: 42)
        var (second, _) = try values(seed: 42)
        let handle = try #require(database.valueHandle(of: HeartRateMeasurement.uuid))
        for _ in 0 ..< 5 {
            let next = first.nextHeartRateMeasurement()
            let one = try #require(next)
            let other = second.nextHeartRateMeasurement()
            #expect(one.valueHandle == handle)
            #expect(one.value == other?.value)
            #expect((30 ... 220).contains(try HeartRateMeasurement(decoding: one.value).heartRate))
        }
    }

    @Test("Current Time is read from the given clock, from an offset; past the end is Invalid Offset")
    func currentTime() throws {
        let (values, database) = try values()
        let handle = try #require(database.valueHandle(of: CurrentTime.uuid))
        // 2026-03-01 12:34:56 UTC.
        let instant: Int64 = 1_772_368_496_000_000
        let whole = try values.read(handle: handle, unixMicroseconds: instant).get()
        let time = try CurrentTime(decoding: whole)
        #expect(time.dateTime.description.hasPrefix("2026-03-01"))
        #expect(try values.read(handle: handle, offset: 7, unixMicroseconds: instant).get() == Array(whole[7...]))
        #expect(values.read(handle: handle, offset: 11, unixMicroseconds: instant) == .failure(.invalidOffset))
        let battery = try #require(database.valueHandle(of: BatteryLevel.uuid))
        #expect(values.read(handle: battery, unixMicroseconds: instant) == .failure(.unlikelyError))
    }

    @Test("Temperatures are body temperatures, time-stamped, in Celsius")
    func temperatures() throws {
        var (values, _) = try values()
        for _ in 0 ..< 10 {
            let next = values.nextTemperature(unixMicroseconds: 1_772_368_496_000_000)
            let reading = try #require(next)
            let celsius = reading.temperature.doubleValue
            #expect((36.4 ... 37.3).contains(celsius), "\(celsius)")
            #expect(reading.timestamp != nil)
            #expect(reading.unit == .celsius)
        }
    }
}
