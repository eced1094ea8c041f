import BLEHost
import BLEWire
import Testing

/// Discovery procedures (Core 5.4, Vol 3, Part G, §4.3–§4.7) byte for byte against a
/// scripted server, at the default ATT_MTU of 23.
@Suite("GATT client: MTU exchange and discovery")
struct GATTClientDiscoveryTests {
    static let custom = BluetoothUUID(uuid128: 0x1234_5678_1234_5678_1234_5678_9ABC_DEF0)
    static let customLE = "F0 DE BC 9A 78 56 34 12 78 56 34 12 78 56 34 12"

    @Test("Exchange MTU sends the configured receive MTU and reports the agreed ATT_MTU")
    func exchangeMTU() {
        var harness = ClientHarness()
        let id = harness.start(.exchangeMTU)
        #expect(harness.takeSent() == [pdu("02 05 02")])
        harness.peer(pdu("03 F7 00"))
        #expect(harness.result(id) == .success(.mtu(247)))
        #expect(harness.bearer.mtu == 247 && harness.passedOn == [.mtuChanged(247)])
    }

    @Test("Discover All Primary Services follows Read By Group Type until Attribute Not Found")
    func discoverAllPrimaryServices() {
        var harness = ClientHarness()
        let id = harness.start(.discoverAllPrimaryServices)
        #expect(harness.takeSent() == [pdu("10 01 00 FF FF 00 28")])
        harness.peer(pdu("11 06 01 00 05 00 00 18 06 00 0B 00 01 18"))
        #expect(harness.takeSent() == [pdu("10 0C 00 FF FF 00 28")])
        harness.peer(pdu("11 14 0C 00 10 00 " + Self.customLE))
        #expect(harness.takeSent() == [pdu("10 11 00 FF FF 00 28")])
        harness.peer(pdu("01 10 11 00 0A"))
        #expect(harness.takeSent().isEmpty)
        #expect(harness.result(id) == .success(.services([
            GATTDiscoveredService(uuid: BluetoothUUID(0x1800), handles: 0x0001 ... 0x0005),
            GATTDiscoveredService(uuid: BluetoothUUID(0x1801), handles: 0x0006 ... 0x000B),
            GATTDiscoveredService(uuid: Self.custom, handles: 0x000C ... 0x0010),
        ])))
    }

    @Test("Discovery ends without another request when a group ends at handle 0xFFFF")
    func discoveryEndsAtLastHandle() {
        var harness = ClientHarness()
        let id = harness.start(.discoverAllPrimaryServices)
        _ = harness.takeSent()
        harness.peer(pdu("11 06 01 00 FF FF 0F 18"))
        #expect(harness.takeSent().isEmpty)
        #expect(harness.result(id) == .success(.services([GATTDiscoveredService(uuid: BluetoothUUID(0x180F), handles: 0x0001 ... 0xFFFF)])))
    }

    @Test("An empty, reversed or backwards discovery response fails with invalidResponse", arguments: [
        "11 06",                                  // no entries
        "11 06 05 00 04 00 00 18",                // group ends before it starts
        "11 06 05 00 08 00 00 18 03 00 04 00 01 18", // second group goes backwards
        "11 08 01 00 05 00 0D 18 00 00",          // a 32-bit UUID, which ATT does not carry
        "11 06 00 00 05 00 00 18",                // handle 0 is below the range asked
    ])
    func inconsistentResponse(response: String) {
        var harness = ClientHarness()
        let id = harness.start(.discoverAllPrimaryServices)
        harness.peer(pdu(response))
        guard case .failure(.invalidResponse)? = harness.result(id) else {
            Issue.record("expected invalidResponse, got \(String(describing: harness.result(id)))")
            return
        }
        #expect(!harness.bearer.hasOutstandingRequest)
    }

    @Test("Another Error Response ends discovery with its code and handle")
    func discoveryError() {
        var harness = ClientHarness()
        let id = harness.start(.discoverAllPrimaryServices)
        harness.peer(pdu("01 10 01 00 06"))
        #expect(harness.result(id) == .failure(.att(.requestNotSupported, handle: 1)))
    }

    @Test("Discover Primary Service by UUID uses Find By Type Value with the UUID as the value")
    func discoverByUUID() {
        var harness = ClientHarness()
        let id = harness.start(.discoverPrimaryServices(BluetoothUUID(0x180D)))
        #expect(harness.takeSent() == [pdu("06 01 00 FF FF 00 28 0D 18")])
        harness.peer(pdu("07 10 00 15 00"))
        #expect(harness.takeSent() == [pdu("06 16 00 FF FF 00 28 0D 18")])
        harness.peer(pdu("01 06 16 00 0A"))
        #expect(harness.result(id) == .success(.services([GATTDiscoveredService(uuid: BluetoothUUID(0x180D), handles: 0x0010 ... 0x0015)])))
        let custom = harness.start(.discoverPrimaryServices(Self.custom))
        #expect(harness.takeSent() == [pdu("06 01 00 FF FF 00 28 " + Self.customLE)])
        harness.peer(pdu("07 20 00 FF FF"))
        #expect(harness.takeSent().isEmpty)
        #expect(harness.result(custom) == .success(.services([GATTDiscoveredService(uuid: Self.custom, handles: 0x0020 ... 0xFFFF)])))
    }

    @Test("Find Included Services reads the UUID of an included service with a 128-bit UUID")
    func findIncludedServices() {
        var harness = ClientHarness()
        let id = harness.start(.findIncludedServices(in: 0x0010 ... 0x0020))
        #expect(harness.takeSent() == [pdu("08 10 00 20 00 02 28")])
        harness.peer(pdu("09 08 11 00 30 00 35 00 0F 18"))
        #expect(harness.takeSent() == [pdu("08 12 00 20 00 02 28")])
        harness.peer(pdu("09 06 12 00 40 00 48 00"))
        #expect(harness.takeSent() == [pdu("0A 40 00")])
        harness.peer(pdu("0B " + Self.customLE))
        #expect(harness.takeSent() == [pdu("08 13 00 20 00 02 28")])
        harness.peer(pdu("01 08 13 00 0A"))
        #expect(harness.result(id) == .success(.includedServices([
            GATTDiscoveredIncludedService(declarationHandle: 0x0011, uuid: BluetoothUUID(0x180F), handles: 0x0030 ... 0x0035),
            GATTDiscoveredIncludedService(declarationHandle: 0x0012, uuid: Self.custom, handles: 0x0040 ... 0x0048),
        ])))
    }

    /// The server's side of characteristic discovery in 0x0001–0x0009.
    static func serveCharacteristics(_ harness: inout ClientHarness) {
        #expect(harness.takeSent() == [pdu("08 01 00 09 00 03 28")])
        harness.peer(pdu("09 07 02 00 02 03 00 00 2A 04 00 0A 05 00 01 2A"))
        #expect(harness.takeSent() == [pdu("08 05 00 09 00 03 28")])
        harness.peer(pdu("09 15 06 00 10 07 00 " + customLE))
        #expect(harness.takeSent() == [pdu("08 07 00 09 00 03 28")])
        harness.peer(pdu("01 08 07 00 0A"))
    }

    @Test("Discover All Characteristics ends each characteristic before the next declaration, the last at the service's end")
    func discoverCharacteristics() {
        var harness = ClientHarness()
        let id = harness.start(.discoverAllCharacteristics(in: 0x0001 ... 0x0009))
        Self.serveCharacteristics(&harness)
        #expect(harness.result(id) == .success(.characteristics([
            GATTDiscoveredCharacteristic(uuid: BluetoothUUID(0x2A00), declarationHandle: 2, valueHandle: 3, properties: .read, endHandle: 3),
            GATTDiscoveredCharacteristic(uuid: BluetoothUUID(0x2A01), declarationHandle: 4, valueHandle: 5, properties: [.read, .write], endHandle: 5),
            GATTDiscoveredCharacteristic(uuid: Self.custom, declarationHandle: 6, valueHandle: 7, properties: .notify, endHandle: 9),
        ])))
    }

    @Test("Discover Characteristics by UUID keeps the matching one with its true end handle")
    func discoverCharacteristicsByUUID() {
        var harness = ClientHarness()
        let id = harness.start(.discoverCharacteristics(BluetoothUUID(0x2A01), in: 0x0001 ... 0x0009))
        Self.serveCharacteristics(&harness)
        #expect(harness.result(id) == .success(.characteristics([
            GATTDiscoveredCharacteristic(uuid: BluetoothUUID(0x2A01), declarationHandle: 4, valueHandle: 5, properties: [.read, .write], endHandle: 5),
        ])))
    }

    @Test("A characteristic declaration whose value handle does not follow it is invalidResponse")
    func badDeclaration() {
        var harness = ClientHarness()
        let id = harness.start(.discoverAllCharacteristics(in: 0x0001 ... 0x0009))
        harness.peer(pdu("09 07 02 00 02 02 00 00 2A"))
        guard case .failure(.invalidResponse)? = harness.result(id) else {
            Issue.record("expected invalidResponse, got \(String(describing: harness.result(id)))")
            return
        }
    }

    @Test("Discover All Descriptors runs Find Information from after the value to the characteristic's end")
    func discoverDescriptors() {
        var harness = ClientHarness()
        let characteristic = GATTDiscoveredCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 6, valueHandle: 7,
                                                          properties: .notify, endHandle: 9)
        let id = harness.start(.discoverAllDescriptors(of: characteristic))
        #expect(harness.takeSent() == [pdu("04 08 00 09 00")])
        harness.peer(pdu("05 01 08 00 02 29"))
        #expect(harness.takeSent() == [pdu("04 09 00 09 00")])
        harness.peer(pdu("05 01 09 00 01 29"))
        #expect(harness.takeSent().isEmpty)
        let found = [GATTDiscoveredDescriptor(uuid: BluetoothUUID(0x2902), handle: 8), GATTDiscoveredDescriptor(uuid: BluetoothUUID(0x2901), handle: 9)]
        #expect(harness.result(id) == .success(.descriptors(found)))
        #expect(found[0].isClientCharacteristicConfiguration && !found[1].isClientCharacteristicConfiguration)
        var bare = characteristic
        bare.endHandle = 7
        let empty = harness.start(.discoverAllDescriptors(of: bare))
        #expect(harness.takeSent().isEmpty)
        #expect(harness.result(empty) == .success(.descriptors([])))
    }
}
