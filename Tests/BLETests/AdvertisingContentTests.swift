@testable import BLE
import Testing

@Suite("Advertising content laid out into 31-octet advertisements")
struct AdvertisingContentTests {
    @Test("flags, services and a short name all go into the advertisement")
    func everythingFits() throws {
        let content = AdvertisingContent(name: "HRM", serviceUUIDs: [0x180D, 0x180F])
        let (advertising, response) = try content.layout(connectable: true, scannable: true)
        #expect(try advertising.encodedLegacy() == [0x02, 0x01, 0x06, 0x05, 0x03, 0x0D, 0x18, 0x0F, 0x18, 0x04, 0x09, 0x48, 0x52, 0x4D])
        #expect(response.structures.isEmpty)
    }

    @Test("a name that does not fit beside the services goes whole into the scan response")
    func nameMovesToScanResponse() throws {
        let name = "Twenty-four characters!!"
        let content = AdvertisingContent(name: name, serviceUUIDs: [0x180D])
        let (advertising, response) = try content.layout(connectable: true, scannable: true)
        #expect(advertising.localName == nil)
        #expect(advertising.serviceUUIDs == [BluetoothUUID(0x180D)])
        #expect(response.completeLocalName == name)
    }

    @Test("what overflows the advertisement goes into the scan response in order")
    func overflowInOrder() throws {
        let content = AdvertisingContent(
            name: "Sensor", serviceUUIDs: [try #require(BluetoothUUID("D0611E78-BBB4-4591-A5F8-487910AE4366"))],
            manufacturerData: AdvertisingData.ManufacturerData(companyIdentifier: 0x0059, data: [1, 2, 3, 4, 5, 6, 7, 8]),
            serviceData: [BluetoothUUID(0x180F): [0x5A]], txPower: 0)
        let (advertising, response) = try content.layout(connectable: true, scannable: true)
        // 3 (flags) + 18 (128-bit list) = 21; the 12-octet manufacturer data goes next door,
        // the 5-octet service data and the 3-octet TX power still fit; the name fills the rest.
        #expect(advertising.encodedLength <= 31)
        #expect(response.manufacturerData?.companyIdentifier == 0x0059)
        #expect(advertising.serviceData?.first?.uuid == BluetoothUUID(0x180F))
        #expect(advertising.txPowerLevel == 0)
        #expect(response.completeLocalName == "Sensor")
    }

    @Test("a name too long for either is shortened to the room left")
    func nameShortened() throws {
        let name = String(repeating: "N", count: 40)
        let (advertising, response) = try AdvertisingContent(name: name).layout(connectable: true, scannable: true)
        #expect(advertising.encodedLength == 31)
        #expect(advertising.shortenedLocalName == String(repeating: "N", count: 26))
        #expect(response.structures.isEmpty)
    }

    @Test("content that fits neither the advertisement nor the scan response is refused")
    func tooLarge() throws {
        let data = [UInt8](repeating: 0xAB, count: 27)
        let content = AdvertisingContent(
            manufacturerData: AdvertisingData.ManufacturerData(companyIdentifier: 0x0059, data: data[...]),
            serviceData: [BluetoothUUID(0x180F): [UInt8](repeating: 1, count: 27), BluetoothUUID(0x180A): [UInt8](repeating: 2, count: 27)])
        #expect(throws: BLEError.advertisementTooLarge(octets: 3 + 31 + 31 + 31, maximum: 31)) {
            _ = try content.layout(connectable: true, scannable: true)
        }
        // A beacon has no scan response: 2 + 2 + 28 octets do not fit.
        let longer = [UInt8](repeating: 0xCD, count: 28)
        #expect(throws: BLEError.advertisementTooLarge(octets: 32, maximum: 31)) {
            _ = try AdvertisingContent(manufacturerData: AdvertisingData.ManufacturerData(companyIdentifier: 1, data: longer[...]))
                .layout(connectable: false, scannable: false)
        }
    }

    @Test("connection parameter requests are converted to controller units and checked")
    func parameterRequests() throws {
        #expect(throws: BLEError.invalidParameters("the latency must be 0 to 499 connection events")) {
            try checked(ConnectionParameterRequest(latency: 500))
        }
        #expect(throws: BLEError.invalidParameters("the connection interval must be 7.5 ms to 4 s")) {
            try checked(ConnectionParameterRequest(interval: .milliseconds(5) ... .milliseconds(10)))
        }
        #expect(throws: BLEError.invalidParameters("the supervision timeout must exceed (1 + latency) × the longest interval × 2")) {
            try checked(ConnectionParameterRequest(interval: .seconds(1) ... .seconds(1), latency: 4, supervisionTimeout: .seconds(10)))
        }
        let fast = try checked(ConnectionParameterRequest.fast)
        #expect(fast.connectionIntervalMin == 6 && fast.connectionIntervalMax == 6)
        let standard = try checked(ConnectionParameterRequest())
        #expect(standard.connectionIntervalMin == 24 && standard.connectionIntervalMax == 24)
        #expect(standard.supervisionTimeout == 200)
        #expect(standard.maxLatency == 0)
        // 31.3 ms to 32.6 ms holds only 32.5 ms (26 units of 1.25 ms).
        let narrow = try checked(ConnectionParameterRequest(interval: .microseconds(31_300) ... .microseconds(32_600)))
        #expect(narrow.connectionIntervalMin == 26 && narrow.connectionIntervalMax == 26)
    }

    @discardableResult
    private func checked(_ request: ConnectionParameterRequest) throws(BLEError) -> HCI.LEConnectionParameters {
        try request.hciParameters()
    }
}
