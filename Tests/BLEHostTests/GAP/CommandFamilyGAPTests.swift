@testable import BLEHost
import BLEWire
import Testing

/// GAP's choice of command family (Core 5.4, Vol 4, Part E, §3.1.1), fed by hand: the exact
/// commands each plain request sends on a controller that claims LE Extended Advertising and
/// the extended commands, and on one that does not.
@Suite("GAP's command family")
struct CommandFamilyGAPTests {
    static let peer = BluetoothAddress(0xA1)
    static let data = AdvertisingData(structures: [.flags([.leGeneralDiscoverable]), .completeLocalName("Fam")])
    static let response = AdvertisingData(structures: [.shortenedLocalName("F")])

    /// The Supported Commands of a controller with both families.
    static let bothFamilies: [HCI.SupportedCommands.Entry] = [
        .leSetAdvertisingParameters, .leSetAdvertisingData, .leSetScanResponseData, .leSetAdvertisingEnable,
        .leSetScanParameters, .leSetScanEnable, .leCreateConnection, .leCreateConnectionCancel,
        .leSetAdvertisingSetRandomAddress, .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData,
        .leSetExtendedScanResponseData, .leSetExtendedAdvertisingEnable, .leRemoveAdvertisingSet,
        .leSetExtendedScanParameters, .leSetExtendedScanEnable, .leExtendedCreateConnection,
    ]

    /// A core started on a controller that reports the LE Extended Advertising feature or not,
    /// with `commands` claimed.
    static func core(feature: Bool, commands: [HCI.SupportedCommands.Entry] = bothFamilies,
                     otherFeatures: HCI.LEFeatures = []) -> GAPCore {
        var gap = GAPCore()
        _ = gap.handle(.ready(ControllerInfo(leFeatures: otherFeatures.union(feature ? [.leExtendedAdvertising] : []),
                                             supportedCommands: HCI.SupportedCommands(commands))), at: 0)
        return gap
    }

    static func commands(_ outputs: [GAPOutput]) -> [any HCICommand] {
        outputs.compactMap { if case let .submit(command, _) = $0 { command } else { nil } }
    }

    static func opcodes(_ outputs: [GAPOutput]) -> [HCI.Opcode] {
        commands(outputs).map { type(of: $0).opcode }
    }

    /// Answers every command in `outputs` with success; returns the events that follow.
    static func answer(_ outputs: [GAPOutput], on gap: inout GAPCore) -> [GAPEvent] {
        var events: [GAPEvent] = []
        for case let .submit(command, token) in outputs {
            let answer = HCI.Event.commandComplete(HCI.CommandComplete(
                numHCICommandPackets: 1, opcode: type(of: command).opcode, returnParameters: [0]))
            events += GAPCoreUnitTests.events(gap.handle(.commandCompleted(token, .success(answer)), at: 0))
        }
        return events + GAPCoreUnitTests.events(outputs)
    }

    @Test("The extended family needs the LE Extended Advertising feature and every command GAP sends in it")
    func choice() {
        #expect(Self.core(feature: true).commandFamily == .extended)
        #expect(Self.core(feature: false).commandFamily == .legacy)
        #expect(Self.core(feature: true, commands: Self.bothFamilies.filter { $0 != .leExtendedCreateConnection }).commandFamily == .legacy)
        #expect(Self.core(feature: true, commands: Self.bothFamilies.filter { $0 != .leSetExtendedScanResponseData }).commandFamily == .legacy)
        #expect(GAPCore().commandFamily == .legacy)
    }

    @Test("Advertise, update data, stop, scan, stop, connect and cancel: legacy commands on a controller without the feature")
    func legacyFamily() throws {
        var gap = Self.core(feature: false)
        let start = try gap.startAdvertising(GAPAdvertisingParameters(data: Self.data, scanResponse: Self.response), at: 0)
        #expect(Self.opcodes(start) == [HCI.LESetAdvertisingParameters.opcode, HCI.LESetAdvertisingData.opcode,
                                        HCI.LESetScanResponseData.opcode, HCI.LESetAdvertisingEnable.opcode])
        #expect(Self.answer(start, on: &gap) == [.advertisingStarted])
        let update = try gap.updateAdvertisingData(Self.data, scanResponse: Self.response, at: 1)
        #expect(Self.opcodes(update) == [HCI.LESetAdvertisingData.opcode, HCI.LESetScanResponseData.opcode])
        #expect(Self.answer(update, on: &gap) == [.advertisingDataUpdated])
        let stop = try gap.stopAdvertising(at: 2)
        #expect(Self.opcodes(stop) == [HCI.LESetAdvertisingEnable.opcode])
        #expect(Self.answer(stop, on: &gap) == [.advertisingStopped(connectionHandle: nil)])
        let scan = try gap.startScanning(GAPScanParameters(), at: 3)
        #expect(Self.opcodes(scan) == [HCI.LESetScanParameters.opcode, HCI.LESetScanEnable.opcode])
        #expect(Self.answer(scan, on: &gap) == [.scanningStarted])
        let stopScan = try gap.stopScanning(at: 4)
        #expect(Self.opcodes(stopScan) == [HCI.LESetScanEnable.opcode])
        let connect = try gap.connect(GAPConnectRequest(peer: Self.peer), at: 5)
        #expect(Self.opcodes(connect) == [HCI.LECreateConnection.opcode])
        #expect(Self.opcodes(try gap.cancelConnect(to: Self.peer, at: 6)) == [HCI.LECreateConnectionCancel.opcode])
    }

    @Test("Advertise, update data, stop, scan, stop, connect and cancel: a legacy-PDU set, an extended scan on LE 1M and LE Extended Create Connection on a claiming controller")
    func extendedFamily() throws {
        var gap = Self.core(feature: true)
        let start = try gap.startAdvertising(GAPAdvertisingParameters(
            kind: .connectable, intervalMin: 0x40, intervalMax: 0x50, data: Self.data, scanResponse: Self.response), at: 0)
        let sent = Self.commands(start)
        #expect(sent.count == 4)
        let parameters = try #require(sent.first as? HCI.LESetExtendedAdvertisingParameters)
        #expect(parameters.advertisingHandle == 0 && parameters.advertisingEventProperties.rawValue == 0b0001_0011)
        #expect(parameters.primaryAdvertisingIntervalMin == 0x40 && parameters.primaryAdvertisingIntervalMax == 0x50)
        #expect(parameters.ownAddressType == .public && parameters.primaryAdvertisingPHY == .le1M)
        let data = try #require(sent[1] as? HCI.LESetExtendedAdvertisingData)
        #expect(data.operation == .complete && Array(data.advertisingData) == Self.data.encoded())
        let response = try #require(sent[2] as? HCI.LESetExtendedScanResponseData)
        #expect(response.operation == .complete && Array(response.scanResponseData) == Self.response.encoded())
        let enable = try #require(sent[3] as? HCI.LESetExtendedAdvertisingEnable)
        #expect(enable.enable && enable.sets.map(\.advertisingHandle) == [0] && enable.sets.map(\.duration) == [0])
        #expect(Self.answer(start, on: &gap) == [.advertisingStarted])

        // A legacy-PDU set's data may change while it is enabled, complete and within 31 octets (§7.8.54).
        let update = try gap.updateAdvertisingData(Self.response, scanResponse: Self.data, at: 1)
        #expect(Self.opcodes(update) == [HCI.LESetExtendedAdvertisingData.opcode, HCI.LESetExtendedScanResponseData.opcode])
        #expect((Self.commands(update).first as? HCI.LESetExtendedAdvertisingData)?.operation == .complete)
        #expect(Self.answer(update, on: &gap) == [.advertisingDataUpdated])
        let stop = try gap.stopAdvertising(at: 2)
        #expect((Self.commands(stop).only as? HCI.LESetExtendedAdvertisingEnable)?.enable == false)
        #expect(Self.answer(stop, on: &gap) == [.advertisingStopped(connectionHandle: nil)])

        let scan = try gap.startScanning(GAPScanParameters(active: true, interval: 0x30, window: 0x18), at: 3)
        let scanParameters = try #require(Self.commands(scan).first as? HCI.LESetExtendedScanParameters)
        #expect(scanParameters.le1M?.scanType == .active && scanParameters.le1M?.scanInterval == 0x30
            && scanParameters.le1M?.scanWindow == 0x18 && scanParameters.leCoded == nil)
        let scanEnable = try #require(Self.commands(scan).last as? HCI.LESetExtendedScanEnable)
        #expect(scanEnable.enable && scanEnable.filterDuplicates == .disabled && Self.commands(scan).count == 2)
        #expect(Self.answer(scan, on: &gap) == [.scanningStarted])
        #expect((Self.commands(try gap.stopScanning(at: 4)).only as? HCI.LESetExtendedScanEnable)?.enable == false)

        let request = GAPConnectRequest(peer: Self.peer, scanInterval: 0x20, scanWindow: 0x10)
        let connect = try #require(Self.commands(try gap.connect(request, at: 5)).only as? HCI.LEExtendedCreateConnection)
        #expect(connect.le1M == HCI.LEExtendedCreateConnection.PHYParameters(
            scanInterval: 0x20, scanWindow: 0x10, connectionParameters: request.parameters))
        #expect(connect.le2M == nil && connect.leCoded == nil && connect.peerAddress == Self.peer && connect.ownAddressType == .public)
        #expect(Self.opcodes(try gap.cancelConnect(to: Self.peer, at: 6)) == [HCI.LECreateConnectionCancel.opcode])
    }

    @Test("Each legacy kind becomes its Table 7.2 event properties; directed sets carry no data and high duty cycle lasts 1.28 s")
    func legacyKinds() throws {
        let kinds: [(GAPAdvertisingParameters.Kind, UInt16)] = [
            (.connectable, 0b0001_0011), (.scannable, 0b0001_0010), (.nonConnectable, 0b0001_0000),
            (.directed(peer: Self.peer, highDutyCycle: false), 0b0001_0101), (.directed(peer: Self.peer, highDutyCycle: true), 0b0001_1101),
        ]
        for (kind, properties) in kinds {
            var gap = Self.core(feature: true)
            let sent = Self.commands(try gap.startAdvertising(GAPAdvertisingParameters(kind: kind, data: Self.data), at: 0))
            let parameters = try #require(sent.first as? HCI.LESetExtendedAdvertisingParameters)
            #expect(parameters.advertisingEventProperties.rawValue == properties)
            let directed = properties & 0b100 != 0
            #expect(parameters.peerAddress == (directed ? Self.peer : BluetoothAddress(0)))
            #expect(sent.contains { $0 is HCI.LESetExtendedAdvertisingData } == !directed)
            #expect(sent.contains { $0 is HCI.LESetExtendedScanResponseData } == (properties & 0b10 != 0))
            let enable = try #require(sent.last as? HCI.LESetExtendedAdvertisingEnable)
            #expect(enable.sets.map(\.duration) == [properties == 0b0001_1101 ? 128 : 0])
        }
    }

    @Test("The random address goes to the set; with privacy the own address type is 0x03; a former extended set is removed first")
    func ownAddressAndFormerSet() throws {
        var gap = Self.core(feature: true)
        let random = BluetoothAddress(0xC0_11_22_33_44_55)
        _ = Self.answer(try gap.setRandomStaticAddress(random, at: 0), on: &gap)
        gap.addressResolutionInController = true
        let sent = Self.commands(try gap.startAdvertising(GAPAdvertisingParameters(useRandomAddress: true), at: 1))
        #expect((sent.first as? HCI.LESetExtendedAdvertisingParameters)?.ownAddressType == .resolvableOrRandom)
        let address = try #require(sent[1] as? HCI.LESetAdvertisingSetRandomAddress)
        #expect(address.advertisingHandle == 0 && address.randomAddress == random)

        var switching = Self.core(feature: true)
        let big = AdvertisingData(structures: [.manufacturerData(company: 0xFFFF, data: [UInt8](repeating: 7, count: 100))])
        let extended = try switching.startAdvertising(GAPAdvertisingParameters(
            kind: .nonConnectable, data: big, extended: GAPExtendedAdvertising()), at: 0)
        _ = Self.answer(extended, on: &switching)
        _ = Self.answer(try switching.stopAdvertising(at: 1), on: &switching)
        let plain = try switching.startAdvertising(GAPAdvertisingParameters(data: Self.data), at: 2)
        #expect(Self.opcodes(plain).first == HCI.LERemoveAdvertisingSet.opcode)
        #expect(Self.answer(plain, on: &switching) == [.advertisingStarted])
        _ = Self.answer(try switching.stopAdvertising(at: 3), on: &switching)
        // Only the switch from an extended set removes it.
        #expect(!Self.opcodes(try switching.startAdvertising(GAPAdvertisingParameters(), at: 4)).contains(HCI.LERemoveAdvertisingSet.opcode))
    }

    @Test("A plain extended-family scan reports legacy PDUs as a legacy scan does, scan response merged, and leaves extended PDUs out")
    func plainScanReports() throws {
        let advertisement: [UInt8] = [0x02, 0x01, 0x06]
        let response: [UInt8] = [0x03, 0x09, 0x41, 0x42]
        var legacy = Self.core(feature: false)
        _ = Self.answer(try legacy.startScanning(GAPScanParameters(), at: 0), on: &legacy)
        func legacyReport(_ type: HCI.LEAdvertisingReport.EventType, _ data: [UInt8]) -> HCIDriverOutput {
            .event(.leMeta(.advertisingReport(HCI.LEAdvertisingReport(reports: [.init(
                eventType: type, addressType: .public, address: Self.peer, data: data[...], rssi: -40)]))))
        }
        var extended = Self.core(feature: true)
        _ = Self.answer(try extended.startScanning(GAPScanParameters(), at: 0), on: &extended)
        func extendedReport(_ type: HCI.LEExtendedAdvertisingReport.EventType, _ data: [UInt8], sid: UInt8 = 0xFF) -> HCIDriverOutput {
            .event(.leMeta(.extendedAdvertisingReport(HCI.LEExtendedAdvertisingReport(reports: [.init(
                eventType: type, addressType: .public, address: Self.peer, primaryPHY: .le1M, secondaryPHY: nil,
                advertisingSID: sid, txPower: HCI.LEExtendedAdvertisingReport.notAvailable, rssi: -40, periodicAdvertisingInterval: 0,
                directAddressType: .public, directAddress: BluetoothAddress(0), data: data[...])]))))
        }
        let adv = HCI.LEExtendedAdvertisingReport.EventType(connectable: true, scannable: true, legacy: true)
        let scanResponse = HCI.LEExtendedAdvertisingReport.EventType(connectable: true, scannable: true, scanResponse: true, legacy: true)
        let expectedFirst = GAPCoreUnitTests.events(legacy.handle(legacyReport(.advInd, advertisement), at: 1))
        #expect(GAPCoreUnitTests.events(extended.handle(extendedReport(adv, advertisement), at: 1)) == expectedFirst)
        let expectedMerged = GAPCoreUnitTests.events(legacy.handle(legacyReport(.scanRsp, response), at: 2))
        let merged = GAPCoreUnitTests.events(extended.handle(extendedReport(scanResponse, response), at: 2))
        #expect(merged == expectedMerged && merged.count == 1)
        guard case let .advertisement(seen)? = merged.first else { return }
        #expect(seen.data.localName == "AB" && seen.connectable && seen.extended == nil)
        // An extended set's ADV_EXT_IND chain, which a legacy scan never hears.
        #expect(GAPCoreUnitTests.events(extended.handle(extendedReport(HCI.LEExtendedAdvertisingReport.EventType(), [0x02, 0x01, 0x04], sid: 3),
                                                        at: 3)).isEmpty)
    }

    @Test("In the extended family an app's plain scan takes over GAP's periodic sync scan rather than being refused")
    func plainScanTakesOverSyncScan() throws {
        var gap = Self.core(feature: true, commands: Self.bothFamilies + [
            .lePeriodicAdvertisingCreateSync, .lePeriodicAdvertisingCreateSyncCancel, .lePeriodicAdvertisingTerminateSync,
        ], otherFeatures: [.lePeriodicAdvertising])
        _ = Self.answer(try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.peer, sid: 5), at: 0), on: &gap)
        #expect(gap.isScanningForPeriodicSync)
        let takeover = try gap.startScanning(GAPScanParameters(active: true, interval: 0x40, window: 0x20), at: 1)
        #expect(Self.opcodes(takeover) == [HCI.LESetExtendedScanEnable.opcode, HCI.LESetExtendedScanParameters.opcode,
                                           HCI.LESetExtendedScanEnable.opcode])
        let parameters = try #require(Self.commands(takeover)[1] as? HCI.LESetExtendedScanParameters)
        #expect(parameters.le1M?.scanType == .active && parameters.le1M?.scanInterval == 0x40 && parameters.leCoded == nil)
        #expect(Self.answer(takeover, on: &gap) == [.scanningStarted])
        #expect(!gap.isScanningForPeriodicSync && gap.isScanning && gap.isSynchronizing)
    }

    @Test("A connection ends the legacy-PDU set, and its end enables the set again with the extended command")
    func restartAfterDisconnection() throws {
        var gap = Self.core(feature: true)
        let start = try gap.startAdvertising(GAPAdvertisingParameters(data: Self.data, restartAfterDisconnection: true), at: 0)
        _ = Self.answer(start, on: &gap)
        let connected = gap.handle(.event(.leMeta(.connectionComplete(HCI.LEConnectionComplete(
            status: .success, connectionHandle: 0x40, role: .peripheral, peerAddressType: .public, peerAddress: Self.peer,
            connectionInterval: 24, peripheralLatency: 0, supervisionTimeout: 200, centralClockAccuracy: .ppm500)))), at: 1)
        #expect(GAPCoreUnitTests.events(connected).first == .advertisingStopped(connectionHandle: 0x40))
        let lost = gap.handle(.linkLost(handle: 0x40, reason: .remoteUserTerminatedConnection), at: 2)
        let enable = try #require(Self.commands(lost).only as? HCI.LESetExtendedAdvertisingEnable)
        #expect(enable.enable && enable.sets.map(\.advertisingHandle) == [0])
        #expect(Self.answer(lost, on: &gap).contains(.advertisingStarted))
    }

    @Test("High duty cycle directed advertising that runs out ends with LE Advertising Set Terminated: stopped, and failed with its status")
    func directedTimeout() throws {
        var gap = Self.core(feature: true)
        _ = Self.answer(try gap.startAdvertising(GAPAdvertisingParameters(kind: .directed(peer: Self.peer, highDutyCycle: true)), at: 0), on: &gap)
        let terminated = gap.handle(.event(.leMeta(.advertisingSetTerminated(HCI.LEAdvertisingSetTerminated(
            status: .advertisingTimeout, advertisingHandle: 0, connectionHandle: 0, numCompletedExtendedAdvertisingEvents: 0)))), at: 1)
        #expect(GAPCoreUnitTests.events(terminated) == [.advertisingStopped(connectionHandle: nil),
                                                        .procedureFailed(.advertising, .controller(.advertisingTimeout))])
        #expect(!gap.isAdvertising)
    }
}

extension Array {
    /// The one element, or `nil` when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
