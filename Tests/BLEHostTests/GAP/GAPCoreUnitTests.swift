import BLEHost
import BLEWire
import Testing

/// GAPCore fed by hand: command answers and events without a world, for the paths a
/// simulated controller does not take.
@Suite("GAP core without a controller")
struct GAPCoreUnitTests {
    /// The token of the first command in `outputs` with `opcode`.
    static func token(_ outputs: [GAPOutput], _ opcode: HCI.Opcode) -> HCICommandToken? {
        for case let .submit(command, token) in outputs where type(of: command).opcode == opcode { return token }
        return nil
    }

    static func events(_ outputs: [GAPOutput]) -> [GAPEvent] {
        outputs.compactMap { if case let .event(event) = $0 { event } else { nil } }
    }

    @Test("A refused LE Create Connection fails the attempt with the named status and starts the next")
    func refusedCreateConnection() throws {
        var gap = GAPCore()
        let first = try gap.connect(GAPConnectRequest(peer: BluetoothAddress(1)), at: 0)
        #expect(try gap.connect(GAPConnectRequest(peer: BluetoothAddress(2)), at: 0).isEmpty)
        let token = try #require(Self.token(first, HCI.LECreateConnection.opcode))
        let status = HCI.Event.commandStatus(HCI.CommandStatus(
            status: .commandDisallowed, numHCICommandPackets: 1, opcode: HCI.LECreateConnection.opcode))
        let outputs = gap.handle(.commandCompleted(token, .success(status)), at: 10)
        #expect(Self.events(outputs) == [.connectionFailed(peer: BluetoothAddress(1), .controller(.commandDisallowed))])
        #expect(Self.token(outputs, HCI.LECreateConnection.opcode) != nil)
        #expect(gap.connecting == BluetoothAddress(2))
        #expect(gap.nextDeadline == HostTime(5_000_010))
    }

    @Test("Read Simulated Location: the answer becomes an event; Unknown HCI Command fails the procedure by name")
    func simulatedLocation() throws {
        var gap = GAPCore()
        let answer = HCI.ReadSimulatedLocation.ReturnParameters(
            status: .success, hasOrigin: false, xMillimetres: 1, yMillimetres: 2, zMillimetres: 3, headingCentidegrees: 4,
            originLatitude: 0, originLongitude: 0)
        let asked = try #require(Self.token(gap.readSimulatedLocation(at: 0), HCI.ReadSimulatedLocation.opcode))
        let answered = gap.handle(.commandCompleted(asked, .success(.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 1, opcode: HCI.ReadSimulatedLocation.opcode, returnParameters: answer.encoded()[...])))), at: 1)
        #expect(Self.events(answered) == [.simulatedLocation(answer)])
        let refused = try #require(Self.token(gap.readSimulatedLocation(at: 2), HCI.ReadSimulatedLocation.opcode))
        let failed = gap.handle(.commandCompleted(refused, .success(.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 1, opcode: HCI.ReadSimulatedLocation.opcode, returnParameters: [0x01])))), at: 3)
        #expect(Self.events(failed) == [.procedureFailed(.readSimulatedLocation, .controller(.unknownHCICommand))])
    }

    @Test("Reports from one device are merged and deduplicated; another device is reported apart")
    func filterMergesPerDevice() throws {
        var gap = GAPCore()
        let start = try gap.startScanning(GAPScanParameters(), at: 0)
        for case let .submit(_, token) in start {
            _ = gap.handle(.commandCompleted(token, .success(.commandComplete(HCI.CommandComplete(
                numHCICommandPackets: 1, opcode: HCI.LESetScanEnable.opcode, returnParameters: [0])))), at: 0)
        }
        #expect(gap.isScanning)
        func report(_ type: HCI.LEAdvertisingReport.EventType, _ address: UInt64, _ data: [UInt8]) -> HCIDriverOutput {
            .event(.leMeta(.advertisingReport(HCI.LEAdvertisingReport(reports: [.init(
                eventType: type, addressType: .public, address: BluetoothAddress(address), data: data[...], rssi: -40)]))))
        }
        let advertisement: [UInt8] = [0x02, 0x01, 0x06]
        let response: [UInt8] = [0x03, 0x09, 0x41, 0x42]
        #expect(Self.events(gap.handle(report(.advInd, 1, advertisement), at: 1)).count == 1)
        #expect(Self.events(gap.handle(report(.advInd, 1, advertisement), at: 2)).isEmpty)
        let merged = Self.events(gap.handle(report(.scanRsp, 1, response), at: 3))
        guard case let .advertisement(seen)? = merged.first else {
            Issue.record("no report after the scan response")
            return
        }
        #expect(seen.data.localName == "AB")
        #expect(seen.data.flags?.rawValue == 0x06)
        #expect(seen.firstSeen == 1)
        #expect(seen.time == 3)
        #expect(Self.events(gap.handle(report(.scanRsp, 1, response), at: 4)).isEmpty)
        #expect(Self.events(gap.handle(report(.advInd, 2, advertisement), at: 5)).count == 1)
        // Malformed data is kept raw and skipped in the merged view.
        let broken = Self.events(gap.handle(report(.advInd, 1, [0x05, 0x01]), at: 6))
        guard case let .advertisement(changed)? = broken.first else {
            Issue.record("changed data not reported")
            return
        }
        #expect(changed.advertisingBytes == [0x05, 0x01])
        #expect(changed.data.localName == "AB")
    }

    @Test("A connection made before advertising's enable was answered starts and stops it, and the late answer changes nothing")
    func connectionBeforeEnableAnswered() throws {
        var gap = GAPCore()
        let start = try gap.startAdvertising(GAPAdvertisingParameters(), at: 0)
        let enable = try #require(Self.token(start, HCI.LESetAdvertisingEnable.opcode))
        for case let .submit(command, token) in start where token != enable {
            _ = gap.handle(.commandCompleted(token, .success(.commandComplete(HCI.CommandComplete(
                numHCICommandPackets: 1, opcode: type(of: command).opcode, returnParameters: [0])))), at: 0)
        }
        let connected = Self.events(gap.handle(.event(.leMeta(.connectionComplete(HCI.LEConnectionComplete(
            status: .success, connectionHandle: 0x0040, role: .peripheral, peerAddressType: .public, peerAddress: BluetoothAddress(7),
            connectionInterval: 6, peripheralLatency: 0, supervisionTimeout: 200, centralClockAccuracy: .ppm500)))), at: 1))
        #expect(connected.count == 3)
        #expect(connected.first == .advertisingStarted, "the start's waiter would never be answered")
        #expect(connected.dropFirst().first == .advertisingStopped(connectionHandle: 0x0040))
        #expect(!gap.isAdvertising)
        let late = gap.handle(.commandCompleted(enable, .success(.commandComplete(HCI.CommandComplete(
            numHCICommandPackets: 1, opcode: HCI.LESetAdvertisingEnable.opcode, returnParameters: [0])))), at: 2)
        #expect(Self.events(late).isEmpty)
        #expect(!gap.isAdvertising)
        // Advertising can start again.
        #expect(try !gap.startAdvertising(GAPAdvertisingParameters(), at: 3).isEmpty)
    }

    @Test("Requests that cannot be honoured throw named errors")
    func refusals() throws {
        var gap = GAPCore()
        #expect(throws: GAPError.scanningNotEnabled) { try gap.stopScanning(at: 0) }
        #expect(throws: GAPError.advertisingNotEnabled) { try gap.stopAdvertising(at: 0) }
        #expect(throws: GAPError.noRandomAddress) { try gap.startScanning(GAPScanParameters(useRandomAddress: true), at: 0) }
        #expect(throws: GAPError.invalidRandomStaticAddress(BluetoothAddress(0x1234))) {
            try gap.setRandomStaticAddress(BluetoothAddress(0x1234), at: 0)
        }
        #expect(throws: GAPError.directedAdvertisingWithoutPeer) {
            try gap.startAdvertising(GAPAdvertisingParameters(kind: .directed(peer: BluetoothAddress(0), highDutyCycle: false)), at: 0)
        }
        #expect(throws: GAPError.unknownConnection(handle: 7)) { try gap.readRSSI(7, at: 0) }
        #expect(throws: GAPError.notConnecting(BluetoothAddress(9))) { try gap.cancelConnect(to: BluetoothAddress(9), at: 0) }
        _ = try gap.startScanning(GAPScanParameters(), at: 0)
        #expect(throws: GAPError.scanningAlreadyEnabled) { try gap.startScanning(GAPScanParameters(), at: 0) }
    }
}
