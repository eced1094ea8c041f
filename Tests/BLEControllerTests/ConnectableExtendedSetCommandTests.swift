import BLEController
import BLEWire
import Testing

/// What LE Set Extended Advertising Parameters and Data accept for connectable extended sets
/// (Core 5.4, Vol 4, Part E, §7.8.53, §7.8.54) and LE Extended Create Connection's PHYs (§7.8.66).
@Suite("Connectable extended sets and initiating PHYs: the commands")
struct ConnectableExtendedSetCommandTests {
    static func air() -> (TestAir, Int) {
        var air = TestAir()
        let device = air.add(address: 0xA1, seed: 1, claimsExtendedAdvertising: true)
        return (air, device)
    }

    @Test("Connectable and scannable at once, directed without connectable, and high duty cycle extended sets are Invalid HCI Command Parameters")
    func invalidProperties() {
        var (air, device) = Self.air()
        #expect(air.createSet(device, handle: 0, properties: [.connectable, .scannable]) == 0x12)
        #expect(air.createSet(device, handle: 0, properties: [.directed]) == 0x12)
        #expect(air.createSet(device, handle: 0, properties: [.connectable, .directed, .highDutyCycleDirected]) == 0x12)
        #expect(air.createSet(device, handle: 0, properties: [.connectable]) == 0x00)
        #expect(air.createSet(device, handle: 1, properties: [.connectable, .directed, .includeTxPower]) == 0x00)
    }

    @Test("A connectable set holds what fits its one AUX_ADV_IND: 245 octets, 244 with TxPower; more is Packet Too Long (0x45)")
    func dataLimit() {
        var (air, device) = Self.air()
        air.createSet(device, handle: 0, properties: [.connectable])
        #expect(air.setExtendedData(device, handle: 0, [UInt8](repeating: 1, count: 245)) == [0x00])
        #expect(air.setExtendedData(device, handle: 0, [UInt8](repeating: 1, count: 246)) == [0x45])
        air.createSet(device, handle: 1, properties: [.connectable, .includeTxPower])
        #expect(air.setExtendedData(device, handle: 1, [UInt8](repeating: 1, count: 245)) == [0x45])
        // A non-connectable set with 300 octets may not become connectable.
        air.createSet(device, handle: 2)
        #expect(air.setExtendedData(device, handle: 2, [UInt8](repeating: 1, count: 300)) == [0x00, 0x00])
        #expect(air.createSet(device, handle: 2, properties: [.connectable]) == 0x45)
    }

    @Test("A connectable set sends its data whole in its AUX_ADV_IND, with AdvMode connectable in both PDUs, and no chain")
    func onTheAir() throws {
        var (air, device) = Self.air()
        let data = [UInt8](repeating: 7, count: 245)
        #expect(air.startConnectableSet(device, data: data) == [0x00, 0x00, 0x00])
        air.run(until: 50_000)
        let pdus = air.extendedPDUs(from: device)
        #expect(!pdus.isEmpty && pdus.allSatisfy { $0.payload.mode == .connectable })
        let auxiliary = try #require(pdus.first { $0.transmission.channel <= 36 })
        #expect(Array(auxiliary.payload.data) == data && auxiliary.payload.auxiliaryPointer == nil)
        #expect(auxiliary.transmission.pdu.count == 2 + 255)
    }

    @Test("An extended scanner reports a connectable set's data whole, with the connectable bit")
    func scannedAsConnectable() throws {
        var (air, device) = Self.air()
        let scanner = air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        let data = [UInt8](repeating: 9, count: 200)
        air.startConnectableSet(device, data: data)
        air.startExtendedScanning(scanner)
        air.run(until: 300_000)
        let report = try #require(air.extendedReports(scanner).first { $0.eventType.dataStatus == .complete })
        #expect(report.eventType.isConnectable && !report.eventType.isScannable && !report.eventType.isLegacy)
        #expect(air.reassembled(scanner).first?.data == data)
    }

    @Test("Initiating on LE 2M alone is Invalid HCI Command Parameters; on LE Coded alone it starts")
    func initiatingPHYs() {
        var (air, device) = Self.air()
        let peer = BluetoothAddress(0xB2)
        #expect(air.command(device, TestAir.extendedCreateConnection(to: peer, scanning: [])).first?.commandResult?.status == 0x12)
        #expect(air.command(device, TestAir.extendedCreateConnection(to: peer, scanning: [.leCoded])).first?.commandResult?.status == 0x00)
        #expect(air.devices[device].controller.isInitiating)
    }
}
