@testable import BLEHost
import BLEWire
import Testing

/// Several periodic syncs at once: GAP sends one Create Sync at a time (Core 5.4, Vol 4,
/// Part E, §7.8.67) and keeps later requests in order until the pending one ends.
extension PeriodicSyncGAPTests {
    @Test("A second request waits until the first is established, then is sent on the same scan; the scan stops after the last")
    func queuedRequestFollows() throws {
        var gap = core()
        _ = answer(try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 0), on: &gap)
        let queued = try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 6), at: 1)
        #expect(queued.isEmpty && gap.queuedSyncCount == 1)
        let first = gap.handle(Self.established(handle: 1, sid: 5), at: 10)
        let next = try #require(Self.commands(first).first as? HCI.LEPeriodicAdvertisingCreateSync)
        #expect(next.advertisingSID == 6 && Self.commands(first).count == 1, "the scan runs on for the second")
        #expect(Self.events(first).count == 1 && gap.isScanning && gap.isSynchronizing && gap.queuedSyncCount == 0)
        _ = answer(first, on: &gap)
        let second = gap.handle(Self.established(handle: 2, sid: 6), at: 20)
        #expect((Self.commands(second).first as? HCI.LESetExtendedScanEnable)?.enable == false)
        _ = answer(second, on: &gap)
        #expect(gap.periodicSyncHandles == [1, 2] && !gap.isScanning && !gap.isSynchronizing)
    }

    @Test("A refused first request sends the next; a queued request for the same train is refused")
    func refusalSendsNext() throws {
        var gap = core()
        let first = GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5)
        _ = answer(try gap.synchronize(first, at: 0), on: &gap)
        _ = try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 7), at: 0)
        #expect(throws: GAPError.periodicSyncPending) { try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 7), at: 0) }
        let failed = gap.handle(Self.established(.connectionFailedToBeEstablished, sid: 5), at: 5)
        #expect(Self.events(failed) == [.periodicSyncFailed(advertiser: Self.advertiser, sid: 5, .controller(.connectionFailedToBeEstablished))])
        #expect((Self.commands(failed).first as? HCI.LEPeriodicAdvertisingCreateSync)?.advertisingSID == 7)
    }

    @Test("A queued request cancelled leaves the queue unsent; one whose find timeout runs out while it waits fails as not found")
    func queuedCancelAndTimeout() throws {
        var gap = core()
        _ = answer(try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 0), on: &gap)
        _ = try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 6), at: 0)
        _ = try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 8, findTimeout: 500), at: 100)
        let cancelled = try gap.cancelSynchronizing(to: Self.advertiser, sid: 6, at: 200)
        #expect(Self.commands(cancelled).isEmpty)
        #expect(Self.events(cancelled) == [.periodicSyncFailed(advertiser: Self.advertiser, sid: 6, .cancelled)])
        #expect(gap.nextDeadline == 600)
        let expired = gap.timerFired(at: 600)
        #expect(Self.events(expired) == [.periodicSyncFailed(advertiser: Self.advertiser, sid: 8, .periodicTrainNotFound)])
        #expect(Self.commands(expired).isEmpty && gap.queuedSyncCount == 0 && gap.isSynchronizing)
        #expect(throws: GAPError.periodicSyncNotPending) { try gap.cancelSynchronizing(to: Self.advertiser, sid: 9, at: 700) }
        let done = gap.handle(Self.established(handle: 4, sid: 5), at: 800)
        #expect((Self.commands(done).first as? HCI.LESetExtendedScanEnable)?.enable == false)
    }

    @Test("An app's extended scan takes over GAP's sync scan (disabled, restarted with its parameters, left on after the sync); a legacy one is refused")
    func appTakesOverTheSyncScan() throws {
        var gap = core()
        _ = answer(try gap.synchronize(GAPPeriodicSyncRequest(advertiser: Self.advertiser, sid: 5), at: 0), on: &gap)
        #expect(throws: GAPError.legacyScanWhileSynchronizing) { try gap.startScanning(GAPScanParameters(), at: 1) }
        let takeover = try gap.startScanning(GAPScanParameters(active: true, interval: 0x40, window: 0x20, extended: true), at: 1)
        let commands = Self.commands(takeover)
        #expect((commands.first as? HCI.LESetExtendedScanEnable)?.enable == false && commands.count == 3)
        let parameters = try #require(commands[1] as? HCI.LESetExtendedScanParameters)
        #expect(parameters.le1M?.scanType == .active && parameters.le1M?.scanInterval == 0x40 && parameters.le1M?.scanWindow == 0x20)
        #expect((commands[2] as? HCI.LESetExtendedScanEnable)?.enable == true)
        #expect(Self.events(answer(takeover, on: &gap)) == [.scanningStarted])
        let done = gap.handle(Self.established(), at: 10)
        #expect(Self.commands(done).isEmpty && gap.isScanning && gap.periodicSyncHandles == [1])
    }
}
