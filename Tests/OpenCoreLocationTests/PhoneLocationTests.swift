import BLE
import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// The Core Location objects one launch of an app made.
@MainActor
final class LocationApp {
    var manager: CLLocationManager?
    let watcher = BeaconWatcher()
}

/// Apple-style Core Location code as an app of a simulated iPhone, on the walk scenario:
/// the monitoring and ranging rules of the iOS research's §9, on virtual time.
@Suite("Core Location apps on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneLocationTests {
    @Test("Rules 21, 22 and 24: off screen the region entry comes late and wakes the suspended app; ranging reaches it only while it runs")
    func backgroundMonitoringAndRanging() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("phone-walk-\(UUID().uuidString).yaml").path
        try CLLocationManagerWalkTests.walkScenario(speed: 2).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 7)
        let app = LocationApp()
        try phone.install(AppDescription(name: "Shop")) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            manager.delegate = app.watcher
            manager.requestAlwaysAuthorization()
            let region = CLBeaconRegion(uuid: CLLocationManagerWalkTests.walkUUID, major: 1, identifier: "shop")
            manager.startMonitoring(for: region)
            manager.startRangingBeacons(satisfying: region.beaconIdentityConstraint)
            app.manager = manager
        }
        try phone.perform(.launch("Shop"))
        // The launch entry point runs (and asks for authorization) while the app is on screen.
        try await testClock.sleep(for: .milliseconds(100))
        try phone.perform(.background("Shop"))

        // The walker comes into range about 6 s in; the app is suspended at 5 s.
        let entered = await app.watcher.log.first { $0 == .didEnter("shop") }
        #expect(entered != nil)
        let timeline = phone.timeline
        let delivery = try #require(timeline.firstIndex { entry in
            if case let .deliver(app: "Shop", events: events) = entry.output { events.contains { $0.detail == "didEnterRegion shop" } } else { false }
        })
        // Woken for it (rule 22)…
        let wake = timeline.firstIndex { entry in
            if case .stateChanged(app: "Shop", from: .suspended, to: .background) = entry.output { true } else { false }
        }
        #expect(wake.map { $0 < delivery } == true, "\(timeline)")
        // …and late: 1 to 12 s after the entry happened (rule 21).
        if case let .deliver(_, events) = timeline[delivery].output, let event = events.first(where: { $0.detail == "didEnterRegion shop" }) {
            #expect((1_000_000 ... 12_000_000).contains(timeline[delivery].time - event.time))
        }
        // Ranging while suspended never reaches the app and is not kept (rule 24).
        #expect(timeline[..<delivery].contains { entry in
            if case let .dropped(app: "Shop", event: event, reason: _) = entry.output { event.detail == "didRange" } else { false }
        })
        // Ranging came at 1 Hz only in the 5 s before the suspension.
        let rangedBeforeEntry = app.watcher.log.events.prefix { $0 != .didEnter("shop") }.filter { if case .didRange = $0 { true } else { false } }
        #expect(rangedBeforeEntry.count <= 6, "\(timeline.map(\.description).joined(separator: "\n")) \(app.watcher.log.events)")
        phone.close()
        app.manager?.stopMonitoring(for: CLBeaconRegion(uuid: CLLocationManagerWalkTests.walkUUID, major: 1, identifier: "shop"))
    }

    /// The walk scenario at 2 m/s in a temporary file, removed by the caller.
    private func walkFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("phone-walk-\(UUID().uuidString).yaml").path
        try CLLocationManagerWalkTests.walkScenario(speed: 2).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Rules 20 and 22: the regions outlive the app; terminated, even force-quit, it is relaunched for the entry, and the manager it makes again has them and hears the entry", arguments: [TerminationReason.system, .forceQuit])
    func relaunchForRegion(reason: TerminationReason) async throws {
        let path = try walkFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 3)
        let runs = RunLog()
        try phone.install(AppDescription(name: "Shop")) { options in
            let app = LocationApp()
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            manager.delegate = app.watcher
            // Asked for at the user's launch; the phone keeps the answer for the relaunch.
            manager.requestAlwaysAuthorization()
            // Only the first run starts monitoring; after a relaunch the region is there.
            if !options.location {
                manager.startMonitoring(for: CLBeaconRegion(uuid: CLLocationManagerWalkTests.walkUUID, major: 1, identifier: "shop"))
            }
            app.manager = manager
            runs.apps.append(app)
            runs.options.append(options)
        }
        try phone.perform(.launch("Shop"))
        try await testClock.sleep(for: .seconds(1))
        try phone.perform(.terminate("Shop", reason))
        let relaunched = try await firstRelaunch(runs)
        let entered = await relaunched.watcher.log.first { $0 == .didEnter("shop") }
        #expect(entered != nil)
        #expect(runs.options.map(\.location) == [false, true])
        #expect(relaunched.manager?.monitoredRegions.map(\.identifier) == ["shop"])
        // The first run's objects hear nothing after the end.
        #expect(!runs.apps[0].watcher.log.events.contains(.didEnter("shop")))
        phone.close()
        for app in runs.apps { app.manager?.stopMonitoring(for: CLBeaconRegion(uuid: CLLocationManagerWalkTests.walkUUID, major: 1, identifier: "shop")) }
    }

    /// The app object of the first relaunch, once it exists.
    private func firstRelaunch(_ runs: RunLog) async throws -> LocationApp {
        let clock = testClock
        let deadline = clock.microseconds + 60_000_000
        while runs.apps.count < 2 {
            guard clock.microseconds < deadline else { throw CancellationError() }
            try await clock.sleep(for: .milliseconds(100))
        }
        return runs.apps[1]
    }
}

/// Every launch of an app: its objects and its options.
@MainActor
final class RunLog {
    var apps: [LocationApp] = []
    var options: [PhoneLaunchOptions] = []
}

