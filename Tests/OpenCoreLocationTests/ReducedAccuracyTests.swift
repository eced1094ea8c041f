import BLE
import Foundation
@testable import OpenCoreLocation
import SimulatedTesting
import Testing

/// What an app's delegate heard, in order, as text a test compares.
@MainActor
final class AccuracyWatcher: NSObject, CLLocationManagerDelegate {
    var lines: [String] = []
    var locations: [CLLocation] = []

    nonisolated func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        let line = "authorization \(manager.authorizationStatus.rawValue) \(manager.accuracyAuthorization)"
        MainActor.assumeIsolated { lines.append(line) }
    }

    nonisolated func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        MainActor.assumeIsolated { self.locations += locations }
    }

    /// A completion handler for `requestTemporaryFullAccuracyAuthorization` that logs its error's code.
    nonisolated func completion(_ label: String) -> @Sendable ((any Error)?) -> Void {
        { error in
            let code = error.map { ($0 as? CLError).map { "\($0.code.rawValue)" } ?? "\($0)" } ?? "nil"
            MainActor.assumeIsolated { self.lines.append("\(label) \(code)") }
        }
    }
}

/// Reduced (approximate) location accuracy, iOS 14's Precise Location switch
/// (docs/phone.md, "Reduced accuracy"): the approximate fixes, the requests for temporary full
/// accuracy, and region monitoring and ranging going silent, on virtual time.
@Suite("Reduced location accuracy", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct ReducedAccuracyTests {
    static let origin = GeographicCoordinate(latitude: 51.5, longitude: 0)

    /// Metres east and north of the origin of `coordinate` (the tests' scenarios are at 51.5° N).
    static func metres(_ coordinate: CLLocationCoordinate2D) -> (east: Double, north: Double) {
        (coordinate.longitude * 111_412.84 * cos(51.5 * .pi / 180), (coordinate.latitude - 51.5) * 111_250)
    }

    @Test("An approximate position is its 4 km square's centre, at most 2.83 km off; a new one comes at most every 15 minutes")
    func approximateRule() {
        func at(_ east: Double, _ north: Double) -> SimulatedLocation {
            SimulatedLocation(east: east, north: north, up: 7, headingDegrees: 0, origin: Self.origin)
        }
        let a = ApproximateLocation.snap(at(10, 3_990)), b = ApproximateLocation.snap(at(3_999, 1))
        #expect(a.east == 2_000 && a.north == 2_000 && b.east == 2_000 && b.north == 2_000 && a.up == 0)
        let west = ApproximateLocation.snap(at(-1, -4_001))
        #expect(west.east == -2_000 && west.north == -6_000)
        let corner = ApproximateLocation.snap(at(0, 0))
        #expect(abs(hypot(corner.east, corner.north) - 2_828.4) < 0.1)

        var rule = ApproximateLocation()
        #expect(rule.isDue(at: 0))
        let fix = ApproximateLocation.fix(for: at(10, 10), at: Date())
        rule.record(fix, at: 0)
        #expect(!rule.isDue(at: 899_999_999) && rule.isDue(at: 900_000_000))
        #expect(fix.horizontalAccuracy == 3_000 && fix.speed == -1 && fix.course == -1 && fix.verticalAccuracy == -1)
    }

    @Test("kCLLocationAccuracyReduced asked for: four approximate fixes an hour, each its grid square's centre, 3 km accurate")
    func reducedDesiredAccuracy() async throws {
        // 1 m/s east for 3 km: the device stays in the square [0, 4 km) × [0, 4 km).
        let path = try VisitsAndSignificantChangesTests.scenario(route: "{waypoints: [[3000, 0, 1.2]], speed: 1}")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let manager = CLLocationManager(options: .init(hci: "sim:\(path)", locationInterval: .seconds(10)))
        let watcher = AccuracyWatcher()
        manager.delegate = watcher
        manager.desiredAccuracy = kCLLocationAccuracyReduced
        manager.startUpdatingLocation()
        try await testClock.sleep(seconds: 3_590)
        manager.stopUpdatingLocation()
        // At 0, 900, 1,800 and 2,700 s; a precise manager would have had 359.
        #expect(watcher.locations.count == 4, "\(watcher.locations)")
        let gaps = zip(watcher.locations, watcher.locations.dropFirst()).map { $1.timestamp.timeIntervalSince($0.timestamp) }
        #expect(gaps.allSatisfy { (900 ... 910).contains($0) }, "\(gaps)")
        for location in watcher.locations {
            #expect(location.horizontalAccuracy == 3_000)
            let (east, north) = Self.metres(location.coordinate)
            #expect(abs(east - 2_000) < 20 && abs(north - 2_000) < 20, "\(location)")
        }
        #expect(manager.accuracyAuthorization == .fullAccuracy, "off a phone the manager has full accuracy")
    }

    @Test("Significant changes still come with reduced accuracy, at most every 15 minutes, at grid squares' centres")
    func significantChangesApproximate() async throws {
        // A bus at 10 m/s for 20 km: precise significant changes would come every 5 minutes.
        let bus = try VisitsAndSignificantChangesTests.scenario(route: "{waypoints: [[20000, 0, 1.2]], speed: 10}")
        defer { try? FileManager.default.removeItem(atPath: bus) }
        let rider = MovesLogger(manager: CLLocationManager(options: .init(hci: "sim:\(bus)", locationInterval: .seconds(5))))
        rider.manager.delegate = rider
        rider.manager.desiredAccuracy = kCLLocationAccuracyReduced
        rider.manager.startMonitoringSignificantLocationChanges()
        try await testClock.sleep(seconds: 1_850)
        rider.manager.stopMonitoringSignificantLocationChanges()
        // At 0, 900 and 1,800 s: 0, 9 and 18 km east, in the squares centred 2, 10 and 18 km east.
        #expect(rider.locations.count == 3, "\(rider.locations)")
        let easts = rider.locations.map { Self.metres($0.coordinate).east }
        #expect(zip(easts, [2_000.0, 10_000, 18_000]).allSatisfy { abs($0 - $1) < 50 }, "\(easts)")
        #expect(rider.locations.allSatisfy { $0.horizontalAccuracy == 3_000 })
    }

    @Test("Visits still come with reduced accuracy, at the place's grid square, 3 km accurate")
    func visitsApproximate() async throws {
        // 150 m east, 10 minutes at a café, then on: the visit is at the café's square.
        let walk = try VisitsAndSignificantChangesTests.scenario(route: "{waypoints: [{at: [150, 0, 1.2], pause: 600}, [450, 0, 1.2]], speed: 1.5}")
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let walker = MovesLogger(manager: CLLocationManager(options: .init(hci: "sim:\(walk)")))
        walker.manager.delegate = walker
        walker.manager.desiredAccuracy = kCLLocationAccuracyReduced
        walker.manager.startMonitoringVisits()
        try await testClock.sleep(seconds: 1_000)
        walker.manager.stopMonitoringVisits()
        #expect(walker.visits.count == 2, "\(walker.visits)")
        for visit in walker.visits {
            let (east, north) = Self.metres(visit.coordinate)
            #expect(abs(east - 2_000) < 20 && abs(north - 2_000) < 20 && visit.horizontalAccuracy == 3_000, "\(visit)")
        }
    }

    /// A scenario phone app that updates its location on a slow eastward walk; its manager and watcher.
    @MainActor
    final class MapsApp {
        var manager: CLLocationManager?
        let watcher = AccuracyWatcher()
    }

    @Test("Precise Location off: reduced accuracy, approximate fixes whatever desiredAccuracy says; temporary full accuracy with a declared purpose makes them precise until the app is suspended")
    func temporaryFullAccuracy() async throws {
        let path = try VisitsAndSignificantChangesTests.scenario(route: "{waypoints: [[3000, 0, 1.2]], speed: 1}")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock)
        let app = MapsApp()
        try phone.install(AppDescription(name: "Maps", locationAccuracy: .reduced,
                                         temporaryLocationUsageDescriptions: ["Navigation": "Turn-by-turn directions need your precise location."])) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", locationInterval: .seconds(10)))
            manager.delegate = app.watcher
            manager.desiredAccuracy = kCLLocationAccuracyBest
            manager.requestWhenInUseAuthorization()
            manager.startUpdatingLocation()
            app.manager = manager
        }
        try phone.perform(.launch("Maps"))
        try await testClock.sleep(seconds: 1_000)
        let manager = try #require(app.manager)
        let watcher = app.watcher
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
        #expect(watcher.lines.last == "authorization 4 reducedAccuracy", "\(watcher.lines)")
        // Approximate from the start (at 0 and 900 s), though the best accuracy is desired.
        #expect(watcher.locations.count == 2 && watcher.locations.allSatisfy { $0.horizontalAccuracy >= 1_000 }, "\(watcher.locations)")

        // A purpose key the Info.plist does not declare: no prompt, kCLErrorPromptDeclined.
        let heard = watcher.lines.count
        manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Racing", completion: watcher.completion("Racing"))
        try await testClock.sleep(seconds: 1)
        #expect(Array(watcher.lines.dropFirst(heard)) == ["Racing 18"])
        #expect(manager.accuracyAuthorization == .reducedAccuracy)

        // A declared one: the user allows; the delegate hears it before the completion.
        manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation", completion: watcher.completion("Navigation"))
        try await testClock.sleep(seconds: 1)
        #expect(Array(watcher.lines.dropFirst(heard + 1)) == ["authorization 4 fullAccuracy", "Navigation nil"])
        #expect(manager.accuracyAuthorization == .fullAccuracy)
        let approximate = watcher.locations.count
        try await testClock.sleep(seconds: 60)
        let precise = watcher.locations.dropFirst(approximate)
        #expect(precise.count >= 5 && precise.allSatisfy { $0.horizontalAccuracy == 5 }, "\(precise)")
        // Asking again with full accuracy shows no prompt.
        await #expect(throws: CLError(.promptDeclined, reason: "the app has full accuracy already")) {
            try await manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
        }

        // Suspended, the app is no longer in use: the grant ends; off screen it cannot ask.
        try phone.perform(.background("Maps"))
        try await testClock.sleep(seconds: 10)
        #expect(phone.state(of: "Maps") == .suspended)
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
        await #expect(throws: CLError(.promptDeclined, reason: "the app is not in the foreground")) {
            try await manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
        }
        #expect(phone.timeline.contains { entry in
            if case let .alert(app: "Maps", message: message) = entry.output { message.contains("Navigation") } else { false }
        })
        manager.stopUpdatingLocation()
        phone.close()
    }

    @Test("A user who refuses temporary full accuracy: the prompt was shown, so no error, and accuracy stays reduced")
    func temporaryFullAccuracyRefused() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let app = MapsApp()
        try phone.install(AppDescription(name: "Maps", locationAccuracy: .reduced, temporaryLocationUsageDescriptions: ["Navigation": "Directions."],
                                         allowsTemporaryFullAccuracy: false)) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim"))
            manager.delegate = app.watcher
            app.manager = manager
        }
        try phone.perform(.launch("Maps"))
        try await testClock.sleep(for: .milliseconds(100))
        let manager = try #require(app.manager)
        manager.requestAlwaysAuthorization()
        try await testClock.sleep(for: .milliseconds(100))
        // Precise Location is chosen with the first "Allow"; before it the app is not told reduced.
        #expect(app.watcher.lines == ["authorization 0 fullAccuracy", "authorization 3 reducedAccuracy"])
        try await manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
        #expect(app.watcher.lines.count == 2, "no change to hear: \(app.watcher.lines)")
        #expect(phone.timeline.contains { entry in
            if case let .alert(app: "Maps", message: message) = entry.output { message.hasSuffix("not allowed") } else { false }
        })
        phone.close()
    }

    @Test("Reduced accuracy: a region entry and ranged beacons never reach the app, the phone drops them; with Precise Location on both do", arguments: [LocationAccuracy.reduced, .full])
    func beaconsNeedFullAccuracy(accuracy: LocationAccuracy) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accuracy-walk-\(UUID().uuidString).yaml").path
        try CLLocationManagerWalkTests.walkScenario(speed: 2).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let app = LocationApp()
        let region = CLBeaconRegion(uuid: CLLocationManagerWalkTests.walkUUID, major: 1, identifier: "shop")
        try phone.install(AppDescription(name: "Shop", locationAccuracy: accuracy)) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            manager.delegate = app.watcher
            manager.requestAlwaysAuthorization()
            manager.startMonitoring(for: region)
            manager.startRangingBeacons(satisfying: region.beaconIdentityConstraint)
            app.manager = manager
        }
        try phone.perform(.launch("Shop"))
        // The walker comes into range about 6 s in.
        let entered = await app.watcher.log.first(within: .seconds(40)) { $0 == .didEnter("shop") }
        let ranged = await app.watcher.log.first(within: .seconds(20)) { if case let .didRange(beacons, _) = $0 { !beacons.isEmpty } else { false } } != nil
        let dropped = phone.timeline.filter { entry in
            if case let .dropped(app: "Shop", event: _, reason: reason) = entry.output { reason.contains("reduced (approximate) accuracy") } else { false }
        }
        let droppedDetails = Set(dropped.compactMap { entry -> String? in
            if case let .dropped(_, event, _) = entry.output { event.detail } else { nil }
        })
        if accuracy == .reduced {
            #expect(app.manager?.accuracyAuthorization == .reducedAccuracy)
            #expect(entered == nil && !ranged, "\(app.watcher.log.events)")
            #expect(droppedDetails.isSuperset(of: ["didEnterRegion shop", "didRange"]), "\(droppedDetails)")
        } else {
            #expect(entered != nil && ranged)
            #expect(dropped.isEmpty)
        }
        phone.close()
        app.manager?.stopMonitoring(for: region)
        app.manager?.stopRangingBeacons(satisfying: region.beaconIdentityConstraint)
    }
}
