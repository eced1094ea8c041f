import BLEController
import BLEWire
import Testing

/// Synchronising to a periodic train (Core 5.4, Vol 4, Part E, §7.8.67–§7.8.69,
/// §7.7.65.14–§7.7.65.16; Vol 6, Part B, §4.4.3.5).
@Suite("Periodic advertising sync")
struct PeriodicSyncTests {
    /// An advertiser (device 0, set 0 with SID 3, a 100 ms train of `data`) and a scanner (device 1).
    static func world(data: [UInt8] = [0x02, 0x01, 0x06], interval: UInt16 = 0x50) -> TestAir {
        var air = PeriodicAdvertisingTests.world(interval: interval, data: data)
        air.add(address: 0xB2, seed: 2, claimsExtendedAdvertising: true)
        return air
    }

    @Test("Sync Established on the first AUX_SYNC_IND names the set, address, PHY, interval and clock accuracy; then a report per event")
    func establishesAndReports() throws {
        var air = Self.world()
        #expect(air.startSync(1, to: 0, sid: 3) == 0x00)
        air.run(until: 2_050_000)
        let established = try #require(air.syncEstablished(1).first)
        #expect(air.syncEstablished(1).count == 1)
        #expect(established.status == .success && established.advertisingSID == 3)
        #expect(established.advertiserAddressType == .public && established.advertiserAddress == air.address(0))
        #expect(established.advertiserPHY == .le1M && established.periodicAdvertisingInterval == 0x50)
        #expect(established.advertiserClockAccuracy == .ppm50)
        let reports = air.periodicReports(1)
        #expect(reports.count >= 15, "a report per 100 ms event once synchronised")
        #expect(reports.allSatisfy { $0.report.syncHandle == established.syncHandle && $0.report.dataStatus == .complete })
        #expect(reports.allSatisfy { Array($0.report.data) == [0x02, 0x01, 0x06] })
        // One report per event: 100 ms apart (each at the end of its AUX_SYNC_IND).
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $1.at - $0.at == 100_000 })
    }

    @Test("1,650 octets of periodic data arrive whole each event, in reports of at most 247 octets")
    func longDataArrivesWhole() {
        let data = ExtendedAdvertisingAirTests.longData
        var air = Self.world(data: data)
        air.startSync(1, to: 0, sid: 3)
        air.run(until: 1_050_000)
        var events: [[UInt8]] = []
        var pending: [UInt8] = []
        for (_, report) in air.periodicReports(1) {
            #expect(report.data.count <= 247)
            pending += report.data
            if report.dataStatus != .incompleteMoreToCome {
                #expect(report.dataStatus == .complete)
                events.append(pending)
                pending = []
            }
        }
        #expect(events.count >= 5)
        #expect(events.allSatisfy { $0 == data })
    }

    @Test("Sync Lost comes Sync_Timeout after the last AUX_SYNC_IND heard, once the advertiser stops")
    func lostAfterTimeout() throws {
        var air = Self.world()
        air.startSync(1, to: 0, sid: 3, syncTimeout: 50)
        air.run(until: 1_000_000)
        air.enablePeriodic(0, handle: 0, false)
        air.command(0, HCI.LESetExtendedAdvertisingEnable(enable: false, sets: []))
        air.run(until: 3_000_000)
        // The last report: of a packet maybe still in the air when the train stopped.
        let last = try #require(air.periodicReports(1).last?.at)
        let lost = try #require(air.syncLost(1).first)
        #expect(air.syncLost(1).count == 1)
        // 500 ms of silence, noticed at the end of the first missed window after it.
        #expect(lost >= last + 500_000 && lost < last + 600_000, "lost at \(lost), last at \(last)")
    }

    @Test("Skip 2: after a received event the next two are not listened to")
    func skipHonoured() {
        var air = Self.world()
        air.startSync(1, to: 0, sid: 3, skip: 2)
        air.run(until: 2_050_000)
        let reports = air.periodicReports(1)
        #expect(reports.count >= 5)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $1.at - $0.at == 300_000 })
    }

    @Test("Create Sync Cancel: Command Complete, then Sync Established with Operation Cancelled by Host (0x44); 0x0C with nothing pending")
    func cancel() throws {
        var air = Self.world()
        air.startSync(1, to: 0, sid: 9)
        air.run(until: 500_000)
        let events = air.command(1, HCI.LEPeriodicAdvertisingCreateSyncCancel())
        #expect(events.first?.commandResult?.status == 0x00)
        guard events.count == 2, case let .leMeta(.periodicAdvertisingSyncEstablished(event)) = events[1] else {
            Issue.record("expected Command Complete then Sync Established, got \(events)")
            return
        }
        #expect(event.status == .operationCancelledByHost && event.advertisingSID == 9)
        #expect(air.command(1, HCI.LEPeriodicAdvertisingCreateSyncCancel()).first?.commandResult?.status == 0x0C)
    }

    @Test("Terminate Sync ends the reports; an unknown handle is Unknown Advertising Identifier (0x42)")
    func terminate() throws {
        var air = Self.world()
        air.startSync(1, to: 0, sid: 3)
        air.run(until: 1_000_000)
        let handle = try #require(air.syncEstablished(1).first?.syncHandle)
        #expect(air.command(1, HCI.LEPeriodicAdvertisingTerminateSync(syncHandle: handle + 1)).first?.commandResult?.status == 0x42)
        #expect(air.command(1, HCI.LEPeriodicAdvertisingTerminateSync(syncHandle: handle)).first?.commandResult?.status == 0x00)
        let count = air.periodicReports(1).count
        air.run(until: 2_000_000)
        #expect(air.periodicReports(1).count == count)
        #expect(air.syncLost(1).isEmpty)
    }

    @Test("Create Sync refusals: a second pending 0x0C, the advertiser list 0x11, Sync_Timeout or SID out of range 0x12")
    func createSyncRefusals() {
        var air = Self.world()
        #expect(air.startSync(1, to: 0, sid: 3, options: .usePeriodicAdvertiserList) == 0x11)
        #expect(air.startSync(1, to: 0, sid: 3, syncTimeout: 0x0009) == 0x12)
        #expect(air.startSync(1, to: 0, sid: 0x10) == 0x12)
        #expect(air.startSync(1, to: 0, sid: 3) == 0x00)
        #expect(air.startSync(1, to: 0, sid: 4) == 0x0C)
    }

    @Test("No AUX_SYNC_IND in six intervals after SyncInfo: Sync Established with 0x3E")
    func failsToEstablish() throws {
        var air = Self.world()
        air.loses = { $0.accessAddress != RadioTransmission.advertisingAccessAddress }
        air.startSync(1, to: 0, sid: 3)
        air.run(until: 2_000_000)
        let event = try #require(air.syncEstablished(1).first)
        #expect(event.status == .connectionFailedToBeEstablished)
        #expect(air.periodicReports(1).isEmpty)
    }
}
