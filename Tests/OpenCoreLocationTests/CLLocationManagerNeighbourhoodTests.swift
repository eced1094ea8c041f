import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// A manager on the embedded neighbourhood (`sim`), driven as an iOS app drives one.
@Suite("CLLocationManager on the neighbourhood", .simulatedOnMainActor, .serialized)
@MainActor
struct CLLocationManagerNeighbourhoodTests {
    @Test("ranging the neighbourhood's UUID lists its three iBeacons, closest first")
    func rangingListsTheBeacons() async throws {
        let watcher = BeaconWatcher()
        let manager = CLLocationManager(options: .init(hci: "sim"))
        manager.delegate = watcher
        let constraint = CLBeaconIdentityConstraint(uuid: neighbourhoodUUID)
        manager.startRangingBeacons(satisfying: constraint)
        #expect(manager.rangedBeaconConstraints == [CLBeaconIdentityConstraint(uuid: neighbourhoodUUID)])
        let event = await watcher.log.first { event in
            guard case let .didRange(beacons, nil) = event else { return false }
            return beacons.count == 3 && beacons.allSatisfy { $0.proximity != .unknown }
        }
        guard case let .didRange(beacons, _)? = event else {
            Issue.record("no ranging callback listed the three beacons: \(watcher.log.events.suffix(5))")
            return
        }
        #expect(Set(beacons.map { "\($0.major)/\($0.minor)" }) == ["1/1", "1/2", "2/7"])
        // Core Location's order: by proximity class, then by accuracy.
        let keys = beacons.map { ($0.proximity.rawValue, $0.accuracy) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(beacons.allSatisfy { $0.accuracy > 0 && $0.rssi < 0 })
        // The door (2 m × 3 m away) is nearer than the backyard beacon behind the wall.
        let door = try #require(beacons.first { $0.minor == 1 && $0.major == 1 })
        let backyard = try #require(beacons.first { $0.major == 2 })
        #expect(door.accuracy < backyard.accuracy)
        #expect(watcher.log.events.first == .didChangeAuthorization)
        manager.stopRangingBeacons(satisfying: constraint)
    }

    @Test("monitoring a region enters it, and requestState then says inside")
    func monitoringEntersAndReportsInside() async throws {
        let watcher = BeaconWatcher()
        let manager = CLLocationManager(options: .init(hci: "sim"))
        manager.delegate = watcher
        let region = CLBeaconRegion(uuid: neighbourhoodUUID, major: 1, identifier: "front")
        manager.startMonitoring(for: region)
        #expect(manager.monitoredRegions.map(\.identifier) == ["front"])
        let started = await watcher.log.first { $0 == .didStartMonitoring("front") }
        #expect(started != nil)
        let entered = await watcher.log.first { $0 == .didEnter("front") }
        #expect(entered != nil)
        #expect(watcher.log.events.contains(.didDetermineState(.inside, "front")))
        let cursor = watcher.log.count
        manager.requestState(for: region)
        let state = await watcher.log.first(from: cursor) {
            if case .didDetermineState(_, "front") = $0 { return true }
            return false
        }
        #expect(state == .didDetermineState(.inside, "front"))
    }

    @Test("the 21st region fails with regionMonitoringFailure and is not monitored")
    func twentyFirstRegionFails() async throws {
        let watcher = BeaconWatcher()
        let manager = CLLocationManager(options: .init(hci: "sim"))
        manager.delegate = watcher
        for index in 0 ..< 21 {
            manager.startMonitoring(for: CLBeaconRegion(uuid: neighbourhoodUUID, major: UInt16(index), identifier: "region-\(index)"))
        }
        let failure = await watcher.log.first {
            if case .monitoringDidFail = $0 { return true }
            return false
        }
        #expect(failure == .monitoringDidFail("region-20", code: CLError.Code.regionMonitoringFailure.rawValue))
        #expect(manager.monitoredRegions.count == 20)
        #expect(!manager.monitoredRegions.map(\.identifier).contains("region-20"))
        // Replacing a monitored region by identifier is not a 21st region.
        manager.startMonitoring(for: CLBeaconRegion(uuid: neighbourhoodUUID, major: 2, minor: 7, identifier: "region-0"))
        let replaced = await watcher.log.first { $0 == .didStartMonitoring("region-0") }
        #expect(replaced != nil)
        #expect(manager.monitoredRegions.count == 20)
    }

    @Test("stopRangingBeacons ends the didRange calls for that constraint")
    func stopRangingStopsCalls() async throws {
        let watcher = BeaconWatcher()
        let manager = CLLocationManager(options: .init(hci: "sim"))
        manager.delegate = watcher
        let first = CLBeaconIdentityConstraint(uuid: neighbourhoodUUID, major: 1)
        manager.startRangingBeacons(satisfying: first)
        let ranged = await watcher.log.first {
            if case let .didRange(beacons, 1) = $0 { return !beacons.isEmpty }
            return false
        }
        guard case let .didRange(beacons, _)? = ranged else {
            Issue.record("no didRange for major 1")
            return
        }
        #expect(beacons.allSatisfy { $0.major == 1 })
        manager.stopRangingBeacons(satisfying: first)
        #expect(manager.rangedBeaconConstraints.isEmpty)
        let cursor = watcher.log.count
        // Three callbacks of another constraint prove the ticks went on.
        manager.startRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: neighbourhoodUUID, major: 2))
        for _ in 0 ..< 3 {
            let mark = watcher.log.count
            let next = await watcher.log.first(from: mark) {
                if case .didRange(_, 2) = $0 { return true }
                return false
            }
            #expect(next != nil)
        }
        let late = watcher.log.events[cursor...].filter {
            if case .didRange(_, 1) = $0 { return true }
            return false
        }
        #expect(late.isEmpty)
    }
}

/// The controller is a TCP socket outside the process: its failure arrives in real time, so
/// this suite stays on the wall clock.
@Suite("CLLocationManager on an unreachable controller")
@MainActor
struct CLLocationManagerUnreachableTests {
    @Test("a controller that cannot be opened fails the manager, its regions and its constraints")
    func unreachableControllerFails() async throws {
        let watcher = BeaconWatcher()
        // Port 1 on the loopback: nothing listens there.
        let manager = CLLocationManager(options: .init(hci: "tcp:127.0.0.1:1"))
        manager.delegate = watcher
        manager.startMonitoring(for: CLBeaconRegion(uuid: neighbourhoodUUID, identifier: "anywhere"))
        manager.startRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: neighbourhoodUUID))
        let failed = await watcher.log.first { $0 == .didFail(code: CLError.Code.rangingUnavailable.rawValue) }
        #expect(failed != nil)
        let regionFailed = await watcher.log.first { $0 == .monitoringDidFail("anywhere", code: 5) }
        #expect(regionFailed != nil)
        let rangingFailed = await watcher.log.first { $0 == .didFailRanging(code: 16) }
        #expect(rangingFailed != nil)
        #expect(manager.monitoredRegions.isEmpty)
        #expect(manager.rangedBeaconConstraints.isEmpty)
    }
}
