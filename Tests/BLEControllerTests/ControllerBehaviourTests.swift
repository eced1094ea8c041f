import BLEController
import BLEWire
import Testing

@Suite("Controller behaviour across activities")
struct ControllerBehaviourTests {
    /// Two devices that connect, as in the initiating tests; returns the air and the indexes.
    static func connectedPair() -> (TestAir, peripheral: Int, central: Int) {
        var air = TestAir()
        let peripheral = air.add(address: 0xF0_00_00_00_00_01, seed: 1)
        let central = air.add(address: 0xF0_00_00_00_00_02, seed: 2)
        air.startAdvertising(peripheral)
        air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        air.run(until: 300_000)
        return (air, peripheral, central)
    }

    @Test("Host ACL beyond the LE buffer credits is dropped and counted")
    func aclCredits() throws {
        var (air, _, central) = Self.connectedPair()
        let handle = try #require(air.devices[central].controller.connectionHandles.first)
        for _ in 0 ..< 10 {
            let packet = HCI.ACLPacket(
                connectionHandle: handle, packetBoundary: .firstNonAutomaticallyFlushable, data: [0x01, 0x00, 0x04, 0x00][...])
            air.input(central, .hci(.acl(packet)))
        }
        // The interim link layer never completes packets: 8 buffers fill, 2 packets overflow.
        #expect(air.devices[central].controller.counters.aclOverflow == 2)
        let oversized = HCI.ACLPacket(
            connectionHandle: handle, packetBoundary: .firstNonAutomaticallyFlushable, data: [UInt8](repeating: 0, count: 252)[...])
        air.input(central, .hci(.acl(oversized)))
        #expect(air.devices[central].controller.counters.aclOverflow == 3)
    }

    @Test("Read RSSI, Read Channel Map and Read PHY are answered for an open connection")
    func connectionQueries() throws {
        var (air, _, central) = Self.connectedPair()
        let handle = try #require(air.devices[central].controller.connectionHandles.first)
        guard case let .commandComplete(map)? = air.command(central, HCI.LEReadChannelMap(connectionHandle: handle)).first
        else {
            Issue.record("no Command Complete")
            return
        }
        let parameters = try map.returnParameters(for: HCI.LEReadChannelMap.self)
        #expect(parameters.status == .success)
        #expect(parameters.channelMap.rawValue == 0x1F_FFFF_FFFF)
        guard case let .commandComplete(phy)? = air.command(central, HCI.LEReadPHY(connectionHandle: handle)).first else {
            Issue.record("no Command Complete")
            return
        }
        #expect(try phy.returnParameters(for: HCI.LEReadPHY.self).txPHY == .le1M)
        guard case let .commandComplete(rssi)? = air.command(central, HCI.ReadRSSI(connectionHandle: handle)).first else {
            Issue.record("no Command Complete")
            return
        }
        #expect(try rssi.returnParameters(for: HCI.ReadRSSI.self).status == .success)
    }

    @Test("The host channel classification becomes the CONNECT_IND channel map")
    func hostChannelClassification() throws {
        var air = TestAir()
        let peripheral = air.add(address: 1, seed: 1)
        let central = air.add(address: 2, seed: 2)
        let map: UInt64 = 0x00_0000_FFFF
        air.command(central, HCI.LESetHostChannelClassification(channelMap: HCI.LEChannelMap(rawValue: map)))
        air.startAdvertising(peripheral)
        air.command(central, TestAir.createConnection(to: air.address(peripheral)))
        air.run(until: 300_000)
        let connect = try #require(air.advertisingPDUs(from: central).first)
        guard case let .connectInd(_, _, data) = connect.pdu.payload else {
            Issue.record("no CONNECT_IND")
            return
        }
        #expect(data.channelMap == map)
    }

    @Test("New advertising data takes effect while advertising")
    func dataUpdate() throws {
        var air = TestAir()
        let advertiser = air.add(address: 1, seed: 1)
        air.startAdvertising(advertiser)
        air.run(until: 50_000)
        air.command(advertiser, HCI.LESetAdvertisingData(advertisingData: [0x02, 0x01, 0x04][...]))
        air.run(until: 200_000)
        let last = try #require(air.advertisingPDUs(from: advertiser).last)
        guard case let .advInd(_, data) = last.pdu.payload else {
            Issue.record("not ADV_IND")
            return
        }
        #expect(Array(data) == [0x02, 0x01, 0x04])
    }

    @Test("A device that advertises and scans hears others, with its scan suspended during its own events")
    func advertiseAndScan() {
        var air = TestAir()
        let busy = air.add(address: 1, seed: 1)
        let other = air.add(address: 2, seed: 2)
        air.startAdvertising(busy)
        air.startScanning(busy, active: true)
        air.startAdvertising(other, interval: 0x0030)
        air.run(until: 2_000_000)
        #expect(air.reports(busy).contains { $0.address == air.address(other) && $0.eventType == .scanRsp })
        // The receiver never listens for scanning while the device's own PDU is on the air.
        for sent in air.log where sent.device == busy {
            let opened = air.devices[busy].windows.last { $0.at <= sent.transmission.start }?.window
            if let opened, opened.closes.map({ $0 > sent.transmission.start }) ?? true {
                #expect(opened.opens > sent.transmission.start, "a scan window overlaps a transmission at \(sent.transmission.start)")
            }
        }
    }

    @Test("The same seeds give the same air and the same host events")
    func determinism() {
        func run() -> ([RadioTransmission], [[HCI.Event]]) {
            var air = TestAir()
            let advertiser = air.add(address: 1, seed: 11)
            let scanner = air.add(address: 2, seed: 12)
            let central = air.add(address: 3, seed: 13)
            air.startAdvertising(advertiser)
            air.startScanning(scanner, active: true)
            air.run(until: 700_000)
            air.command(central, TestAir.createConnection(to: air.address(advertiser)))
            air.run(until: 1_500_000)
            return (air.log.map(\.transmission), air.devices.map { $0.events.map(\.event) })
        }
        let (firstAir, firstEvents) = run()
        let (secondAir, secondEvents) = run()
        #expect(firstAir == secondAir)
        #expect(firstEvents == secondEvents)
        #expect(firstAir.count > 20)
    }

    @Test("Power cycling loses all state and closes the receiver")
    func powerCycle() {
        var air = TestAir()
        let advertiser = air.add(address: 1, seed: 1)
        air.startAdvertising(advertiser)
        air.startScanning(advertiser, active: false)
        let outputs = air.devices[advertiser].controller.powerCycle(at: 10_000)
        #expect(outputs == [.stopListening])
        #expect(!air.devices[advertiser].controller.isAdvertising)
        #expect(!air.devices[advertiser].controller.isScanning)
        #expect(air.devices[advertiser].controller.nextDeadline == nil)
    }
}
