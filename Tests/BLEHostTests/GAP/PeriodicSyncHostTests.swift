@testable import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Testing

/// Our host synchronising to another host's periodic train over a world's controllers (Core
/// 5.4, Vol 3, Part C, §9.5.2): the train found through the extended scan, its data whole,
/// the sync ended when the consumer stops, lost when the train stops, refused by name.
@Suite("Periodic sync between hosts", .simulated, .serialized, .timeLimit(.minutes(10)))
struct PeriodicSyncHostTests {
    /// 300 octets of AD structures that are not all alike: two reports of the controller's.
    static let trainData: [UInt8] = AdvertisingData(structures: [
        AdvertisingData.Structure(type: .manufacturerSpecificData, data: (0 ..< 200).map { UInt8(truncatingIfNeeded: $0 &* 13) }),
        AdvertisingData.Structure(type: .manufacturerSpecificData, data: (0 ..< 96).map { UInt8(truncatingIfNeeded: $0 &* 5 &+ 1) }),
    ]).encoded()

    /// The advertiser's extended set 3 with a train every `interval` × 1.25 ms (100 ms by
    /// default) carrying ``trainData``.
    private func advertise(_ host: Host, interval: UInt16 = 80) async throws {
        #expect(Self.trainData.count == 300)
        try await host.startAdvertising(GAPAdvertisingParameters(
            kind: .nonConnectable, data: AdvertisingData(structures: []),
            extended: GAPExtendedAdvertising(sid: 3, periodic: GAPPeriodicAdvertising(interval: interval, data: Self.trainData))))
    }

    @Test("The sync is established through a scan the host starts and stops; each event's 300 octets arrive whole; leaving the loop terminates the sync")
    func synchronizes() async throws {
        let pair = try await ExtendedHostPair.start()
        defer { pair.close() }
        let (running, advertiser, scanner) = (pair.running, pair.advertiser, pair.scanner)
        try await advertise(advertiser)
        // The stream is a temporary: once the helper's loop breaks, nothing holds it.
        let (established, reports) = try await Self.first(3, of: scanner.synchronize(to: running.addresses[0], sid: 3))
        let sync = try #require(established)
        #expect(sync.advertiser == running.addresses[0] && sync.sid == 3 && sync.interval == 80 && sync.phy == .le1M)
        #expect(reports.count == 3)
        #expect(reports.allSatisfy { $0.data == Self.trainData && !$0.truncated && $0.syncHandle == sync.handle && $0.rssi != nil })
        // The scan the host started for the sync is off, and the sync ends in the controller.
        try await waitUntil(within: patience) { await scanner.gap.periodicSyncHandles.isEmpty }
        #expect(await !scanner.gap.isScanning)
        try await advertiser.stopAdvertising()
    }

    @Test("Syncs to two trains at once: the second request waits for the first Create Sync, then both report side by side")
    func twoTrainsAtOnce() async throws {
        let pair = try await ExtendedHostPair.start(advertisers: 2)
        defer { pair.close() }
        let (running, scanner) = (pair.running, pair.scanner)
        // Different intervals, so that two trains started together do not collide event after event.
        try await advertise(pair.advertisers[0], interval: 80)
        try await advertise(pair.advertisers[1], interval: 97)
        // The streams live only inside this closure, so that they end (and their syncs are
        // terminated) once it returns.
        let both = { () async throws -> ((GAPPeriodicSync?, [GAPPeriodicReport]), (GAPPeriodicSync?, [GAPPeriodicReport])) in
            let first = try await scanner.synchronize(to: running.addresses[0], sid: 3)
            let second = try await scanner.synchronize(to: running.addresses[1], sid: 3)
            #expect(await scanner.gap.queuedSyncCount == 1)
            async let one = Self.first(2, of: first)
            async let two = Self.first(2, of: second)
            return try await (one, two)
        }
        let (a, b) = try await both()
        let (syncA, syncB) = (try #require(a.0), try #require(b.0))
        #expect(syncA.advertiser == running.addresses[0] && syncB.advertiser == running.addresses[1] && syncA.handle != syncB.handle)
        #expect(a.1.count == 2 && a.1.allSatisfy { $0.syncHandle == syncA.handle && $0.data == Self.trainData })
        #expect(b.1.count == 2 && b.1.allSatisfy { $0.syncHandle == syncB.handle && $0.data == Self.trainData })
        try await waitUntil(within: patience) { await scanner.gap.periodicSyncHandles.isEmpty }
        #expect(await !scanner.gap.isScanning)
    }

    @Test("An app's extended scan started while the host's own sync scan runs takes it over: the sync is established, the app hears the advertiser, and its scan stays on")
    func appScanDuringSync() async throws {
        let pair = try await ExtendedHostPair.start()
        defer { pair.close() }
        let (running, advertiser, scanner) = (pair.running, pair.advertiser, pair.scanner)
        try await advertise(advertiser)
        let sync = try await scanner.synchronize(to: running.addresses[0], sid: 3)
        #expect(await scanner.gap.isScanningForPeriodicSync)
        let heard = try await scanner.startScanning(GAPScanParameters(active: false, extended: true))
        let (established, reports) = try await Self.first(1, of: sync)
        #expect(established != nil && reports.count == 1)
        var advertisements = heard.makeAsyncIterator()
        let first = await advertisements.next()
        #expect(first?.address == running.addresses[0])
        let gap = await scanner.gap
        #expect(gap.isScanning && !gap.isScanningForPeriodicSync)
        try await scanner.stopScanning()
    }

    /// The sync and the first `count` reports of `stream`, leaving the loop after them.
    private static func first(
        _ count: Int, of stream: AsyncThrowingStream<HostPeriodicSyncEvent, any Error>
    ) async throws -> (GAPPeriodicSync?, [GAPPeriodicReport]) {
        var reports: [GAPPeriodicReport] = []
        var established: GAPPeriodicSync?
        for try await event in stream {
            switch event {
            case let .established(sync): established = sync
            case let .report(report): reports.append(report)
            }
            if reports.count == count { break }
        }
        return (established, reports)
    }

    @Test("A train that stops ends the stream with Sync Lost; a train never heard ends it with not found, and the host's scan stops")
    func lostAndNotFound() async throws {
        let pair = try await ExtendedHostPair.start()
        defer { pair.close() }
        let (running, advertiser, scanner) = (pair.running, pair.advertiser, pair.scanner)
        try await advertise(advertiser)
        let stream = try await scanner.synchronize(to: running.addresses[0], sid: 3, timeout: 500_000)
        var iterator = stream.makeAsyncIterator()
        guard case .established? = try await iterator.next() else { Issue.record("no sync"); return }
        try await advertiser.stopAdvertising()
        do {
            while try await iterator.next() != nil {}
            Issue.record("the stream ended without an error")
        } catch let HostError.gap(.periodicSyncLost(handle)) {
            #expect(await scanner.gap.periodicSyncHandles.contains(handle) == false)
        } catch {
            Issue.record("ended with \(error)")
        }

        let missing = try await scanner.synchronize(to: running.addresses[0], sid: 3, findTimeout: 1_000_000)
        do {
            for try await _ in missing {}
            Issue.record("the stream ended without an error")
        } catch let HostError.gap(error) {
            #expect(error == .periodicTrainNotFound)
        }
        try await waitUntil(within: patience) { await !scanner.gap.isScanning }
    }

    @Test("Dropping the stream before the train is found sends Create Sync Cancel and stops the host's scan")
    func cancelledBeforeEstablishment() async throws {
        let pair = try await ExtendedHostPair.start()
        defer { pair.close() }
        let scanner = pair.scanner
        // Nobody advertises set 12: the request stays pending until the stream goes.
        _ = try await scanner.synchronize(to: pair.running.addresses[0], sid: 12)
        try await waitUntil(within: 5) {
            let (pending, scanning) = await (scanner.gap.isSynchronizing, scanner.gap.isScanning)
            return !pending && !scanning
        }
        // The controller took the cancel: a new request is accepted and pending again.
        let again = try await scanner.synchronize(to: pair.running.addresses[0], sid: 12)
        #expect(await scanner.gap.isSynchronizing)
        _ = again
    }

    @Test("A controller that does not claim periodic advertising is refused by name before anything is sent")
    func unsupportedController() async throws {
        var scenario = Scenario(name: "empty").addingExternalDevices(1)
        scenario.timing = .ideal
        let running = try RunningWorld(scenario, speed: 20, capturesHCI: false)
        let host = Host(transport: running.transports[0], configuration: .patient)
        _ = try await host.start()
        await #expect(throws: HostError.gap(.periodicSyncUnsupported)) {
            _ = try await host.synchronize(to: BluetoothAddress(0xC0FF_EE00_0001), sid: 1)
        }
        await host.close()
    }
}
