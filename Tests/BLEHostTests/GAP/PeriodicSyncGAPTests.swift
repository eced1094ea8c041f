@testable import BLEHost
import BLEWire
import Testing

/// GAP's periodic advertising synchronisation (Core 5.4, Vol 3, Part C, §9.5.2; Vol 4, Part E,
/// §7.8.67–§7.8.69, §7.7.65.14–16), fed by hand: the commands it sends, the extended scan it
/// runs while the sync is being established, the reports it joins and what it refuses.
@Suite("Periodic sync in GAP")
struct PeriodicSyncGAPTests {
    static let advertiser = BluetoothAddress(0xC0FF_EE00_0001)

    /// A core told at start-up about a controller with (or without) the feature bit and the sync commands.
    func core(feature: Bool = true, commands: Bool = true) -> GAPCore {
        var gap = GAPCore()
        var entries: [HCI.SupportedCommands.Entry] = [.leSetExtendedScanParameters, .leSetExtendedScanEnable]
        if commands {
            entries += [.lePeriodicAdvertisingCreateSync, .lePeriodicAdvertisingCreateSyncCancel, .lePeriodicAdvertisingTerminateSync]
        }
        _ = gap.handle(.ready(ControllerInfo(
            leFeatures: feature ? [.leExtendedAdvertising, .lePeriodicAdvertising] : [.leExtendedAdvertising],
            supportedCommands: HCI.SupportedCommands(entries))), at: 0)
        return gap
    }

    static func commands(_ outputs: [GAPOutput]) -> [any HCICommand] {
        outputs.compactMap { if case let .submit(command, _) = $0 { command } else { nil } }
    }

    static func events(_ outputs: [GAPOutput]) -> [GAPEvent] {
        outputs.compactMap { if case let .event(event) = $0 { event } else { nil } }
    }

    /// Answers every command in `outputs`: Command Status for Create Sync, Command Complete otherwise.
    func answer(_ outputs: [GAPOutput], on gap: inout GAPCore, status: HCI.StatusCode = .success) -> [GAPOutput] {
        var produced: [GAPOutput] = []
        for case let .submit(command, token) in outputs {
            let opcode = type(of: command).opcode
            let event: HCI.Event = command is HCI.LEPeriodicAdvertisingCreateSync
                ? .commandStatus(HCI.CommandStatus(status: status, numHCICommandPackets: 1, opcode: opcode))
                : .commandComplete(HCI.CommandComplete(numHCICommandPackets: 1, opcode: opcode, returnParameters: [0]))
            produced += gap.handle(.commandCompleted(token, .success(event)), at: 0)
        }
        return produced
    }

    static func established(_ status: HCI.StatusCode = .success, handle: UInt16 = 0x0001, sid: UInt8 = 5) -> HCIDriverOutput {
        .event(.leMeta(.periodicAdvertisingSyncEstablished(HCI.LEPeriodicAdvertisingSyncEstablished(
            status: status, syncHandle: handle, advertisingSID: sid, advertiserAddressType: .public, advertiserAddress: advertiser,
            advertiserPHY: .le2M, periodicAdvertisingInterval: 0x50, advertiserClockAccuracy: .ppm50))))
    }

    static func report(_ data: ArraySlice<UInt8>, _ status: HCI.LEPeriodicAdvertisingReport.DataStatus,
                               handle: UInt16 = 0x0001) -> HCIDriverOutput {
        .event(.leMeta(.periodicAdvertisingReport(HCI.LEPeriodicAdvertisingReport(
            syncHandle: handle, txPower: -6, rssi: -48, dataStatus: status, data: data))))
    }

    @Test("Create Sync names the set, an extended scan runs until the sync is established, then it is stopped")
    func createSyncAndScan() throws {
        var gap = core()
        let request = GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5, skip: 2, syncTimeout: 300)
        let started = try gap.synchronize(request, at: 0)
        let commands = Self.commands(started)
        let create = try #require(commands.first as? HCI.LEPeriodicAdvertisingCreateSync)
        #expect(create.advertisingSID == 5 && create.advertiserAddress == Self.advertiser && create.advertiserAddressType == .public)
        #expect(create.skip == 2 && create.syncTimeout == 300 && create.options == [])
        #expect(commands.contains { $0 is HCI.LESetExtendedScanParameters })
        #expect((commands.last as? HCI.LESetExtendedScanEnable)?.enable == true)
        _ = answer(started, on: &gap)
        #expect(gap.isScanning && gap.isSynchronizing)
        let done = gap.handle(Self.established(), at: 10)
        #expect(Self.events(done) == [.periodicSyncEstablished(GAPPeriodicSync(
            handle: 1, advertiser: Self.advertiser, advertiserAddressType: .public, sid: 5, phy: .le2M, interval: 0x50,
            clockAccuracy: .ppm50))])
        #expect((Self.commands(done).first as? HCI.LESetExtendedScanEnable)?.enable == false)
        #expect(Self.events(answer(done, on: &gap)) == [.scanningStopped])
        #expect(!gap.isScanning && !gap.isSynchronizing && gap.periodicSyncHandles == [1])
    }

    @Test("A scan the app started is used and left running after establishment")
    func appScanKept() throws {
        var gap = core()
        _ = answer(try gap.startScanning(GAPScanParameters(extended: true), at: 0), on: &gap)
        let started = try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 0)
        #expect(Self.commands(started).count == 1)
        _ = answer(started, on: &gap)
        let done = gap.handle(Self.established(), at: 10)
        #expect(Self.commands(done).isEmpty && gap.isScanning)
    }

    @Test("Reports marked more to come are joined into one event's data; a truncated one is marked; Sync Lost ends the sync")
    func reportsJoined() throws {
        var gap = core()
        _ = answer(try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 0), on: &gap)
        _ = gap.handle(Self.established(), at: 1)
        let data = (0 ..< 600).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(gap.handle(Self.report(data[0 ..< 247], .incompleteMoreToCome), at: 2).isEmpty)
        #expect(gap.handle(Self.report(data[247 ..< 494], .incompleteMoreToCome), at: 2).isEmpty)
        let whole = Self.events(gap.handle(Self.report(data[494...], .complete), at: 2))
        #expect(whole == [.periodicReport(GAPPeriodicReport(syncHandle: 1, txPower: -6, rssi: -48, data: data, truncated: false))])
        _ = gap.handle(Self.report(data[0 ..< 247], .incompleteMoreToCome), at: 3)
        let cut = Self.events(gap.handle(Self.report([], .incompleteTruncated), at: 3))
        #expect(cut == [.periodicReport(GAPPeriodicReport(syncHandle: 1, txPower: -6, rssi: -48, data: Array(data[0 ..< 247]), truncated: true))])
        #expect(gap.handle(Self.report(data[0 ..< 10], .complete, handle: 9), at: 4).isEmpty)
        #expect(Self.events(gap.handle(.event(.leMeta(.periodicAdvertisingSyncLost(.init(syncHandle: 1)))), at: 5))
            == [.periodicSyncLost(handle: 1)])
        #expect(gap.periodicSyncHandles.isEmpty)
    }

    @Test("A refused Create Sync and a failed establishment end the request with the controller's status, and the scan stops")
    func refusedByController() throws {
        var gap = core()
        let started = try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 0)
        let refused = answer(started, on: &gap, status: .connectionAlreadyExists)
        #expect(Self.events(refused).contains(.periodicSyncFailed(advertiser: Self.advertiser, sid: 5, .controller(.connectionAlreadyExists))))
        #expect(Self.commands(refused).contains { ($0 as? HCI.LESetExtendedScanEnable)?.enable == false })
        #expect(!gap.isSynchronizing)
        _ = answer(refused, on: &gap)
        _ = answer(try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 1), on: &gap)
        let failed = gap.handle(Self.established(.connectionFailedToBeEstablished), at: 2)
        #expect(Self.events(failed) == [.periodicSyncFailed(advertiser: Self.advertiser, sid: 5, .controller(.connectionFailedToBeEstablished))])
        #expect(gap.periodicSyncHandles.isEmpty)
    }

    @Test("Cancelling sends Create Sync Cancel; a sync established meanwhile is terminated; the find timeout cancels too")
    func cancelAndTimeout() throws {
        var gap = core()
        _ = answer(try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 0), on: &gap)
        #expect(Self.commands(try gap.cancelSynchronizing(at: 1)).first is HCI.LEPeriodicAdvertisingCreateSyncCancel)
        let cancelled = gap.handle(Self.established(.operationCancelledByHost), at: 2)
        #expect(Self.events(cancelled) == [.periodicSyncFailed(advertiser: Self.advertiser, sid: 5, .cancelled)])
        _ = answer(cancelled, on: &gap)

        _ = answer(try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 10), on: &gap)
        _ = try gap.cancelSynchronizing(at: 11)
        let late = gap.handle(Self.established(handle: 3), at: 12)
        #expect((Self.commands(late).last as? HCI.LEPeriodicAdvertisingTerminateSync)?.syncHandle == 3)
        #expect(Self.events(late) == [.periodicSyncFailed(advertiser: Self.advertiser, sid: 5, .cancelled)])
        _ = answer(late, on: &gap)

        let request = GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5, findTimeout: 1_000_000)
        _ = answer(try gap.synchronize(request, at: 100), on: &gap)
        #expect(gap.nextDeadline == 1_000_100)
        #expect(gap.timerFired(at: 1_000_000).isEmpty)
        #expect(Self.commands(gap.timerFired(at: 1_000_100)).first is HCI.LEPeriodicAdvertisingCreateSyncCancel)
        #expect(gap.nextDeadline == nil)
        #expect(Self.events(gap.handle(Self.established(.operationCancelledByHost), at: 1_000_200))
            == [.periodicSyncFailed(advertiser: Self.advertiser, sid: 5, .periodicTrainNotFound)])
    }

    @Test("Refused before anything is sent: no feature bit, no commands, SID 16, a skip or timeout out of range, a legacy scan, a second request")
    func refusals() throws {
        var noFeature = core(feature: false)
        let request = GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5)
        #expect(throws: GAPError.periodicSyncUnsupported) { try noFeature.synchronize(request, at: 0) }
        var noCommands = core(commands: false)
        #expect(throws: GAPError.periodicSyncUnsupported) { try noCommands.synchronize(request, at: 0) }
        #expect(GAPError.periodicSyncUnsupported.description.contains("bit 13"))
        var gap = core()
        for bad in [GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 16),
                    GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5, skip: 0x01F4),
                    GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5, syncTimeout: 9),
                    GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5, syncTimeout: 0x4001)] {
            #expect(throws: GAPError.self) { try gap.synchronize(bad, at: 0) }
        }
        #expect(throws: GAPError.invalidPeriodicSync("SID 16 is above 15 (0x0F): an advertising set's SID has 4 bits")) {
            try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 16), at: 0)
        }
        var legacy = core()
        _ = answer(try legacy.startScanning(GAPScanParameters(), at: 0), on: &legacy)
        #expect(throws: GAPError.self) { try legacy.synchronize(request, at: 0) }
        #expect(!gap.isSynchronizing && !gap.isScanning)
        _ = try gap.synchronize(request, at: 0)
        #expect(throws: GAPError.periodicSyncPending) { try gap.synchronize(request, at: 0) }
        #expect(throws: GAPError.unknownPeriodicSync(handle: 7)) { try gap.terminateSync(7, at: 0) }
    }
}
