import BLEBeacons
import Testing

@Suite("Region monitoring core")
struct BeaconMonitorTests {
    static let door = IBeaconIdentity(uuid: neighbourhoodUUID, major: 1, minor: 1)
    static let backyard = IBeaconIdentity(uuid: neighbourhoodUUID, major: 2, minor: 7)
    static let stranger = IBeaconIdentity(uuid: ProximityUUID(0x1234), major: 1, minor: 1)
    static let home = BeaconRegion(identifier: "home", constraint: BeaconIdentityConstraint(uuid: neighbourhoodUUID))
    static let front = BeaconRegion(identifier: "front", constraint: BeaconIdentityConstraint(uuid: neighbourhoodUUID, major: 1))

    @Test("The first detection enters the region: state inside, then didEnter, at the detection's time")
    func enter() throws {
        var monitor = BeaconMonitor()
        try monitor.startMonitoring(Self.home, at: 0)
        #expect(monitor.state(of: "home") == .unknown)
        #expect(monitor.detected(Self.stranger, at: seconds(1)).isEmpty)
        #expect(monitor.detected(Self.door, at: seconds(2)) == [
            .didDetermineState(.inside, for: Self.home, at: seconds(2)), .didEnter(Self.home, at: seconds(2)),
        ])
        #expect(monitor.detected(Self.backyard, at: seconds(3)).isEmpty)
        #expect(monitor.state(of: "home") == .inside)
    }

    @Test("Exit comes exactly 30 s after the last detection, stamped with that time even when the tick is late")
    func exitTiming() throws {
        var monitor = BeaconMonitor()
        try monitor.startMonitoring(Self.home, at: 0)
        for tenth in 0 ... 100 { _ = monitor.detected(Self.door, at: seconds(Double(tenth) / 10)) }
        #expect(monitor.nextDeadline == seconds(40))
        #expect(monitor.tick(at: seconds(39.999_999)).isEmpty)
        var late = monitor
        #expect(monitor.tick(at: seconds(40)) == [
            .didDetermineState(.outside, for: Self.home, at: seconds(40)), .didExit(Self.home, at: seconds(40)),
        ])
        #expect(monitor.nextDeadline == nil)
        #expect(monitor.tick(at: seconds(100)).isEmpty)
        #expect(late.tick(at: seconds(100)).map(\.time) == [seconds(40), seconds(40)])
    }

    @Test("A detection exactly at the end of the exit period keeps the region inside")
    func detectionAtDeadline() throws {
        var monitor = BeaconMonitor()
        try monitor.startMonitoring(Self.home, at: 0)
        _ = monitor.detected(Self.door, at: seconds(5))
        #expect(monitor.detected(Self.door, at: seconds(35)).isEmpty)
        #expect(monitor.nextDeadline == seconds(65))
    }

    @Test("A detection after a missed exit reports the exit first, then the new entry")
    func missedExit() throws {
        var monitor = BeaconMonitor()
        try monitor.startMonitoring(Self.home, at: 0)
        _ = monitor.detected(Self.door, at: seconds(5))
        #expect(monitor.detected(Self.door, at: seconds(50)) == [
            .didDetermineState(.outside, for: Self.home, at: seconds(35)), .didExit(Self.home, at: seconds(35)),
            .didDetermineState(.inside, for: Self.home, at: seconds(50)), .didEnter(Self.home, at: seconds(50)),
        ])
    }

    @Test("Unheard for the exit period, an unknown region becomes outside without an exit")
    func unknownToOutside() throws {
        var monitor = BeaconMonitor()
        try monitor.startMonitoring(Self.home, at: seconds(10))
        #expect(monitor.nextDeadline == seconds(40))
        #expect(monitor.tick(at: seconds(40)) == [.didDetermineState(.outside, for: Self.home, at: seconds(40))])
        #expect(monitor.detected(Self.door, at: seconds(41)).last == .didEnter(Self.home, at: seconds(41)))
    }

    @Test("requestState answers unknown, inside and outside, and nothing for a region not monitored")
    func requestState() throws {
        var monitor = BeaconMonitor()
        try monitor.startMonitoring(Self.home, at: 0)
        #expect(monitor.requestState(for: "home", at: seconds(1)) == [.didDetermineState(.unknown, for: Self.home, at: seconds(1))])
        _ = monitor.detected(Self.door, at: seconds(2))
        #expect(monitor.requestState(for: "home", at: seconds(3)) == [.didDetermineState(.inside, for: Self.home, at: seconds(3))])
        #expect(monitor.requestState(for: "home", at: seconds(40)) == [
            .didDetermineState(.outside, for: Self.home, at: seconds(32)), .didExit(Self.home, at: seconds(32)),
            .didDetermineState(.outside, for: Self.home, at: seconds(40)),
        ])
        #expect(monitor.requestState(for: "elsewhere", at: seconds(41)).isEmpty)
    }

    @Test("The 21st region is refused with Core Location's regionMonitoringFailure; replacing one is not adding")
    func regionLimit() throws {
        var monitor = BeaconMonitor()
        for index in 0 ..< 20 {
            try monitor.startMonitoring(BeaconRegion(identifier: "r\(index)", uuid: ProximityUUID(UInt128(index))), at: 0)
        }
        let extra = try BeaconRegion(identifier: "r20", uuid: neighbourhoodUUID)
        #expect(throws: BeaconMonitoringError.regionLimitReached(limit: 20)) { try monitor.startMonitoring(extra, at: 0) }
        #expect(BeaconMonitoringError.regionLimitReached(limit: 20).coreLocationCode == 5)
        #expect(monitor.monitoredRegions.count == 20 && !monitor.monitoredRegions.contains(extra))
        let replacement = try BeaconRegion(identifier: "r3", uuid: neighbourhoodUUID)
        try monitor.startMonitoring(replacement, at: seconds(1))
        #expect(monitor.monitoredRegions.count == 20 && monitor.monitoredRegions[3] == replacement)
        monitor.stopMonitoring(identifier: "r0")
        try monitor.startMonitoring(extra, at: seconds(2))
        #expect(monitor.monitoredRegions.last == extra)
        var small = BeaconMonitor(configuration: MonitoringConfiguration(regionLimit: 1))
        try small.startMonitoring(Self.home, at: 0)
        #expect(throws: BeaconMonitoringError.regionLimitReached(limit: 1)) { try small.startMonitoring(Self.front, at: 0) }
    }

    @Test("Regions follow CLBeaconRegion's shapes: a minor needs a major")
    func constraints() throws {
        #expect(throws: BeaconMonitoringError.minorWithoutMajor) {
            try BeaconRegion(identifier: "bad", uuid: neighbourhoodUUID, major: nil, minor: 1)
        }
        #expect(BeaconMonitoringError.minorWithoutMajor.coreLocationCode == nil)
        let exact = try BeaconRegion(identifier: "door", uuid: neighbourhoodUUID, major: 1, minor: 1)
        #expect(exact.contains(Self.door) && !exact.contains(Self.backyard))
        #expect(Self.front.contains(Self.door) && !Self.front.contains(Self.backyard))
        #expect(Self.home.contains(Self.backyard) && !Self.home.contains(Self.stranger))
        #expect(exact.constraint.description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 1 1")
        #expect(try BeaconIdentityConstraint.validated(uuid: neighbourhoodUUID, major: 1, minor: nil) == Self.front.constraint)
    }

    @Test("Overlapping regions are entered together in the order they were started, and leave on their own beacons")
    func overlapping() throws {
        var monitor = BeaconMonitor()
        try monitor.startMonitoring(Self.home, at: 0)
        try monitor.startMonitoring(Self.front, at: 0)
        #expect(monitor.detected(Self.door, at: seconds(1)).compactMap { event -> String? in
            if case let .didEnter(region, _) = event { return region.identifier }
            return nil
        } == ["home", "front"])
        _ = monitor.detected(Self.backyard, at: seconds(20)) // home only
        #expect(monitor.tick(at: seconds(31)) == [
            .didDetermineState(.outside, for: Self.front, at: seconds(31)), .didExit(Self.front, at: seconds(31)),
        ])
        #expect(monitor.tick(at: seconds(50)).last == .didExit(Self.home, at: seconds(50)))
    }

    @Test("The exit period is configurable, and other beacon formats enter nothing")
    func configuration() throws {
        var monitor = BeaconMonitor(configuration: MonitoringConfiguration(exitPeriod: .milliseconds(5_500)))
        try monitor.startMonitoring(Self.home, at: 0)
        _ = monitor.detected(IBeacon(identity: Self.door, measuredPower: -59), at: seconds(1))
        #expect(monitor.nextDeadline == seconds(6.5))
        let url = try #require(BeaconFrame(decoding: bytes(EddystoneFrameTests.neighbourhoodURL)))
        #expect(monitor.detected(url, at: seconds(7)).map(\.time) == [seconds(6.5), seconds(6.5)])
        #expect(monitor.detected(url, at: seconds(8)).isEmpty)
        monitor.stopMonitoring(Self.home)
        #expect(monitor.monitoredRegions.isEmpty && monitor.nextDeadline == nil)
    }
}
