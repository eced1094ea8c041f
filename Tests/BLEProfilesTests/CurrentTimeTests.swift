import BLEHost
import BLEProfiles
import BLEWire
import Testing

@Suite("Current Time Service")
struct CurrentTimeTests {
    @Test("2024-02-29 13:05:09.5 UTC, a Thursday, set manually: E8 07 02 1D 0D 05 09 04 80 01")
    func encoding() throws {
        let time = try #require(CurrentTime(unixMicroseconds: 1_709_211_909_500_000, adjustReason: .manualTimeUpdate))
        #expect(time.dayOfWeek == .thursday)
        #expect(time.encoded() == [0xE8, 0x07, 0x02, 0x1D, 0x0D, 0x05, 0x09, 0x04, 0x80, 0x01])
        #expect(try CurrentTime(decoding: time.encoded()) == time)
    }

    @Test("The Unix epoch is Thursday 1970-01-01; a second before it is Wednesday 1969-12-31 23:59:59")
    func epoch() throws {
        let epoch = try #require(CurrentTime(unixMicroseconds: 0))
        #expect(epoch.dateTime.description == "1970-01-01 00:00:00" && epoch.dayOfWeek == .thursday)
        let before = try #require(CurrentTime(unixMicroseconds: -1_000_000))
        #expect(before.dateTime.description == "1969-12-31 23:59:59" && before.dayOfWeek == .wednesday)
        let shifted = try #require(CurrentTime(unixMicroseconds: 0, utcOffsetSeconds: 3600))
        #expect(shifted.dateTime.hours == 1)
        #expect(CurrentTime(unixMicroseconds: .max) == nil)
    }

    @Test("Malformed current times are refused: short, month 13, day of week 8, reserved adjust reason bits")
    func malformed() {
        let cases: [[UInt8]] = [
            [0xE8, 0x07, 0x02, 0x1D, 0x0D, 0x05, 0x09, 0x04, 0x80],
            [0xE8, 0x07, 0x0D, 0x1D, 0x0D, 0x05, 0x09, 0x04, 0x80, 0x01],
            [0xE8, 0x07, 0x02, 0x1D, 0x0D, 0x05, 0x09, 0x08, 0x80, 0x01],
            [0xE8, 0x07, 0x02, 0x1D, 0x0D, 0x05, 0x09, 0x04, 0x80, 0x10],
            [0x00, 0x01, 0x02, 0x1D, 0x0D, 0x05, 0x09, 0x04, 0x80, 0x00],
        ]
        for bytes in cases {
            #expect(throws: WireError.self, "\(bytes)") { try CurrentTime(decoding: bytes) }
        }
    }

    @Test("Local time information: UTC+1 in daylight time is 04 04 and 2 hours from UTC; −128 is unknown")
    func localTimeInformation() throws {
        let info = try #require(LocalTimeInformation(timeZone: 4, dstOffset: .daylightTime))
        #expect(info.encoded() == [0x04, 0x04])
        #expect(info.utcOffsetSeconds == 7200)
        let unknown = try LocalTimeInformation(decoding: [0x80, 0xFF])
        #expect(unknown.timeZone == nil && unknown.dstOffset == .unknown && unknown.utcOffsetSeconds == nil)
        #expect(unknown.encoded() == [0x80, 0xFF])
        #expect(try LocalTimeInformation(decoding: [0xD0, 0x00]).timeZone == -48)
        #expect(throws: WireError.self) { try LocalTimeInformation(decoding: [0x39, 0x00]) }
        #expect(throws: WireError.self) { try LocalTimeInformation(decoding: [0x00, 0x03]) }
        #expect(LocalTimeInformation(timeZone: 57, dstOffset: .standardTime) == nil)
    }

    @Test("The service: dynamic Current Time read and notify; writes checked only when writeable")
    func definition() throws {
        let service = CurrentTimeService().definition
        #expect(service.uuid == BluetoothUUID(0x1805))
        #expect(service.characteristics[0].properties == [.read, .notify] && service.characteristics[0].value == .dynamic)
        #expect(service.characteristics[1].value == .stored([0x00, 0x00]))
        let time = try #require(CurrentTime(unixMicroseconds: 0)).encoded()
        #expect(CurrentTimeService().validateCurrentTimeWrite(time) == .failure(.writeNotPermitted))
        let writeable = CurrentTimeService(currentTimeIsWriteable: true)
        #expect(writeable.definition.characteristics[0].properties.contains(.write))
        #expect(writeable.validateCurrentTimeWrite(time) == .success(try CurrentTime(decoding: time)))
        #expect(writeable.validateCurrentTimeWrite([0x00]) == .failure(.invalidAttributeValueLength))
    }
}
