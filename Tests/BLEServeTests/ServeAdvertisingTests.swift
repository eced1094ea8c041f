import BLEServe
import BLEWire
import Testing

@Suite("What a served file advertises, and the values it streams")
struct ServeAdvertisingTests {
    @Test("The name moves to the scan response when it does not fit beside a 128-bit UUID")
    func advertisingLayout() throws {
        var served = try ServeFile.parse(yaml: """
            name: SwiftBLE Interop
            advertise: [d7a30001-6c5a-4a7e-9b1e-5f0c2a9e0001]
            services:
              - uuid: "180F"
            """)
        var (data, response) = served.advertisingData()
        #expect(data.structures.count == 2)
        #expect(response.structures == [.completeLocalName("SwiftBLE Interop")])
        served.advertise = [BluetoothUUID(0x180F)]
        (data, response) = served.advertisingData()
        #expect(data.structures.count == 3)
        #expect(response.structures.isEmpty)
    }

    @Test("--stream values carry a little-endian sequence number, then octets counting from 4")
    func streamValues() throws {
        let stream = try #require(ServeStream(parsing: "2A19:10000:8"))
        #expect(stream.count == 10_000)
        #expect(stream.value(0x0102_0304) == [0x04, 0x03, 0x02, 0x01, 4, 5, 6, 7])
        #expect(ServeStream(parsing: "2A19:0:8") == nil)
        #expect(ServeStream(parsing: "2A19:1:3") == nil)
        #expect(ServeStream(parsing: "2A19:1:513") == nil)
        #expect(ServeStream(parsing: "2A19:1") == nil)
    }
}
