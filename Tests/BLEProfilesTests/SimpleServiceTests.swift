import BLEHost
import BLEProfiles
import BLEWire
import Testing

@Suite("Battery, Device Information, alerts and Tx Power")
struct SimpleServiceTests {
    @Test("Battery level is one octet 0–100; 101 and above are reserved")
    func batteryLevel() throws {
        #expect(try BatteryLevel(decoding: [0x64]) == .full)
        #expect(BatteryLevel(percent: 42)?.encoded() == [0x2A])
        #expect(BatteryLevel(percent: 101) == nil)
        #expect(throws: WireError.self) { try BatteryLevel(decoding: [0x65]) }
        #expect(throws: WireError.self) { try BatteryLevel(decoding: []) }
        #expect(throws: WireError.self) { try BatteryLevel(decoding: [0x01, 0x02]) }
    }

    @Test("The battery service: Battery Level readable and notified, stored")
    func batteryService() throws {
        let level = try #require(BatteryLevel(percent: 87))
        let service = BatteryService(level: level).definition
        #expect(service.uuid == BluetoothUUID(0x180F))
        #expect(service.characteristics.count == 1)
        #expect(service.characteristics[0].uuid == BluetoothUUID(0x2A19))
        #expect(service.characteristics[0].properties == [.read, .notify])
        #expect(service.characteristics[0].value == .stored([87]))
        #expect(BatteryService(notifies: false).definition.characteristics[0].properties == .read)
    }

    @Test("System ID: 40-bit manufacturer identifier then 24-bit OUI, little-endian")
    func systemID() throws {
        let id = try #require(SystemID(manufacturerIdentifier: 0x12_3456_789A, organizationallyUniqueIdentifier: 0xABCDEF))
        let bytes: [UInt8] = [0x9A, 0x78, 0x56, 0x34, 0x12, 0xEF, 0xCD, 0xAB]
        #expect(id.encoded() == bytes)
        #expect(try SystemID(decoding: bytes) == id)
        #expect(SystemID(manufacturerIdentifier: 1 << 40, organizationallyUniqueIdentifier: 0) == nil)
        #expect(throws: WireError.self) { try SystemID(decoding: Array(bytes.prefix(7))) }
    }

    @Test("PnP ID: source, vendor, product, version; sources other than 1 and 2 are reserved")
    func pnpID() throws {
        let bytes: [UInt8] = [0x01, 0x0D, 0x00, 0x34, 0x12, 0x00, 0x01]
        let id = try PnPID(decoding: bytes)
        #expect(id == PnPID(vendorIDSource: .bluetoothSIG, vendorID: 0x000D, productID: 0x1234, productVersion: 0x0100))
        #expect(id.encoded() == bytes)
        #expect(throws: WireError.self) { try PnPID(decoding: [0x03, 0x0D, 0x00, 0x34, 0x12, 0x00, 0x01]) }
    }

    @Test("Device information holds the set facts, in DIS order, and reads back from values")
    func deviceInformation() throws {
        let info = DeviceInformationService(manufacturerName: "Acme", modelNumber: "HR-1", firmwareRevision: "2.0",
                                            systemID: SystemID(manufacturerIdentifier: 1, organizationallyUniqueIdentifier: 2))
        let service = info.definition
        #expect(service.uuid == BluetoothUUID(0x180A))
        #expect(service.characteristics.map(\.uuid)
            == [BluetoothUUID(0x2A29), BluetoothUUID(0x2A24), BluetoothUUID(0x2A26), BluetoothUUID(0x2A23)])
        #expect(service.characteristics[0].value == .stored(Array("Acme".utf8)))
        #expect(service.characteristics.allSatisfy { $0.properties == .read && $0.permissions == .readable })
        var values: [BluetoothUUID: [UInt8]] = [:]
        for characteristic in service.characteristics {
            if case let .stored(bytes) = characteristic.value { values[characteristic.uuid] = bytes }
        }
        #expect(try DeviceInformationService(values: values) == info)
        #expect(throws: WireError.self) { try DeviceInformationService.decodeText([0x41, 0xFF]) }
    }

    @Test("Alert level: 0, 1, 2; writes of reserved levels get Out of Range")
    func alertLevel() throws {
        #expect(try AlertLevel(decoding: [0x02]) == .highAlert)
        #expect(throws: WireError.self) { try AlertLevel(decoding: [0x03]) }
        #expect(AlertLevel.validateWrite([0x01]) == .success(.mildAlert))
        #expect(AlertLevel.validateWrite([0x03]) == .failure(.outOfRange))
        #expect(AlertLevel.validateWrite([0x01, 0x00]) == .failure(.invalidAttributeValueLength))
    }

    @Test("Immediate Alert is write-without-response only; Link Loss is read and write, stored")
    func alertServices() {
        let immediate = ImmediateAlertService().definition
        #expect(immediate.uuid == BluetoothUUID(0x1802))
        #expect(immediate.characteristics[0].uuid == BluetoothUUID(0x2A06))
        #expect(immediate.characteristics[0].properties == .writeWithoutResponse)
        #expect(immediate.characteristics[0].maximumLength == 1)
        let linkLoss = LinkLossService(alertLevel: .highAlert).definition
        #expect(linkLoss.uuid == BluetoothUUID(0x1803))
        #expect(linkLoss.characteristics[0].properties == [.read, .write])
        #expect(linkLoss.characteristics[0].permissions == .readWrite)
        #expect(linkLoss.characteristics[0].value == .stored([0x02]))
    }

    @Test("Tx power level is a sint8 within −100…+20 dBm")
    func txPower() throws {
        #expect(TxPowerLevel(dBm: -4)?.encoded() == [0xFC])
        #expect(try TxPowerLevel(decoding: [0x9C]).dBm == -100)
        #expect(throws: WireError.self) { try TxPowerLevel(decoding: [0x9B]) }
        #expect(throws: WireError.self) { try TxPowerLevel(decoding: [0x15]) }
        #expect(TxPowerLevel(dBm: 21) == nil)
        let service = TxPowerService(level: try #require(TxPowerLevel(dBm: -4))).definition
        #expect(service.uuid == BluetoothUUID(0x1804))
        #expect(service.characteristics[0].uuid == BluetoothUUID(0x2A07) && service.characteristics[0].value == .stored([0xFC]))
    }
}
