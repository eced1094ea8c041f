import BLEHost
import BLEWire
import Testing

@Suite("GAP advertising content for ble advertise")
struct GAPAdvertisingContentTests {
    @Test("name, 16-bit service and manufacturer data fit one connectable advertisement")
    func everythingInTheAdvertisement() throws {
        let content = GAPAdvertisingContent(name: "HR", services: [BluetoothUUID(0x180D)], manufacturerData: [0x4C, 0x00, 0x01])
        let parameters = try content.parameters(kind: .connectable, intervalMilliseconds: 100)
        #expect(parameters.intervalMin == 160)
        #expect(parameters.intervalMax == 160)
        #expect(parameters.kind == .connectable)
        // Flags 0x06; 16-bit list 180D; manufacturer 004C + 01; complete name "HR".
        #expect(try parameters.data.encodedLegacy() == [
            0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18, 0x04, 0xFF, 0x4C, 0x00, 0x01, 0x03, 0x09, 0x48, 0x52,
        ])
        #expect(parameters.scanResponse.structures.isEmpty)
    }

    @Test("a long name goes to the scan response of a connectable advertiser")
    func longNameInScanResponse() throws {
        let name = "A name of twenty-seven char"
        let content = GAPAdvertisingContent(name: name, services: [BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!])
        let parameters = try content.parameters()
        #expect(parameters.data.localName == nil)
        #expect(parameters.data.encodedLength == 3 + 18)
        #expect(parameters.scanResponse.completeLocalName == name)
    }

    @Test("a name too long for either PDU is shortened in the scan response, where it has the most room")
    func tooLongNameShortenedInScanResponse() throws {
        let content = GAPAdvertisingContent(name: "This is a rather long device name",
                                            services: [BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!])
        let parameters = try content.parameters()
        #expect(parameters.data.localName == nil)
        #expect(parameters.scanResponse.shortenedLocalName == "This is a rather long device ")
        #expect(parameters.scanResponse.encodedLength == 31)
    }

    @Test("a shortened name never ends inside a character")
    func shortenedOnCharacters() throws {
        let content = GAPAdvertisingContent(name: String(repeating: "é", count: 20), services: [BluetoothUUID(0x1809)])
        let parameters = try content.parameters(kind: .nonConnectable)
        // 31 − 4 (service list) − 2 (header) = 25 octets: 12 two-octet characters.
        #expect(parameters.data.shortenedLocalName == String(repeating: "é", count: 12))
    }

    @Test("a non-connectable beacon has no flags and shortens a name that does not fit")
    func beaconShortensName() throws {
        let content = GAPAdvertisingContent(name: "Kitchen thermometer by the window", services: [BluetoothUUID(0x1809)])
        let parameters = try content.parameters(kind: .nonConnectable, intervalMilliseconds: 1000)
        #expect(parameters.intervalMin == 1600)
        #expect(parameters.data.flags == nil)
        #expect(parameters.data.encodedLength == 31)
        #expect(parameters.data.shortenedLocalName == "Kitchen thermometer by th")
        #expect(parameters.scanResponse.structures.isEmpty)
    }

    @Test("services are listed once each, in their shortest form")
    func servicesShortestAndOnce() throws {
        let content = GAPAdvertisingContent(services: [
            BluetoothUUID(0x180D), BluetoothUUID(uuid32: 0x180D), BluetoothUUID(uuid32: 0x1234_5678), BluetoothUUID(0x180F),
        ])
        let parameters = try content.parameters()
        #expect(parameters.data.serviceUUIDs == [BluetoothUUID(0x180D), BluetoothUUID(0x180F), BluetoothUUID(uuid32: 0x1234_5678)])
    }

    @Test("intervals outside 20 ms to 10.24 s and oversized data are refused")
    func refusals() {
        #expect(throws: GAPError.invalidAdvertisingInterval(milliseconds: 19)) {
            try GAPAdvertisingContent().parameters(intervalMilliseconds: 19)
        }
        #expect(throws: GAPError.invalidAdvertisingInterval(milliseconds: 10_241)) {
            try GAPAdvertisingContent().parameters(intervalMilliseconds: 10_241)
        }
        #expect(throws: GAPError.self) {
            try GAPAdvertisingContent().parameters(intervalMilliseconds: .nan)
        }
        #expect(throws: GAPError.advertisingDataTooLong(octets: 33, maximum: 31)) {
            try GAPAdvertisingContent(manufacturerData: Array(repeating: 0xAB, count: 28)).parameters()
        }
    }
}
