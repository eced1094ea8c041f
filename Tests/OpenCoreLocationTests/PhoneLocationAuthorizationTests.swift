import BLE
import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// A delegate that records each authorization callback with the status it reports.
@MainActor
final class AuthorizationWatcher: NSObject, CLLocationManagerDelegate {
    var statuses: [CLAuthorizationStatus] = []
    var deprecated: [CLAuthorizationStatus] = []
    var failures: [String] = []

    nonisolated func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        MainActor.assumeIsolated { statuses.append(manager.authorizationStatus) }
    }

    nonisolated func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        MainActor.assumeIsolated { deprecated.append(status) }
    }

    nonisolated func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        let line = "monitoring \(region?.identifier ?? "-") \((error as? CLError)?.code.rawValue ?? -1)"
        MainActor.assumeIsolated { failures.append(line) }
    }

    nonisolated func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        let code = (error as? CLError)?.code.rawValue ?? -1
        MainActor.assumeIsolated { failures.append("ranging \(code)") }
    }
}

/// Core Location authorization of apps on the simulated iPhone (iOS research §7,
/// "Authorization"; §9, rule 22), on virtual time.
@Suite("Core Location authorization on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneLocationAuthorizationTests {
    /// The managers and watchers of each launch of an app.
    @MainActor
    final class Runs {
        var managers: [CLLocationManager] = []
        var watchers: [AuthorizationWatcher] = []
    }

    /// Installs `name` answering `answer`; each launch makes a manager on a controller it
    /// never opens (nothing here monitors or ranges).
    private func install(_ name: String, answer: LocationAuthorizationAnswer, on phone: SimulatedPhone) throws -> Runs {
        let runs = Runs()
        try phone.install(AppDescription(name: name, locationAuthorization: answer)) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim"))
            let watcher = AuthorizationWatcher()
            manager.delegate = watcher
            runs.managers.append(manager)
            runs.watchers.append(watcher)
        }
        return runs
    }

    /// Lets the posted delegate calls run.
    private func settle() async throws { try await testClock.sleep(for: .milliseconds(100)) }

    @Test("Rule 22: an app starts not determined; When In Use gives at most When In Use, Always may be asked once more; the user's answer decides")
    func requestsFollowTheUsersAnswer() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let allows = try install("Allows", answer: .always, on: phone)
        let whileUsing = try install("WhileUsing", answer: .whenInUse, on: phone)
        let refuses = try install("Refuses", answer: .denied, on: phone)
        let undecided = try install("Undecided", answer: .undecided, on: phone)
        for name in ["Allows", "WhileUsing", "Refuses", "Undecided"] { try phone.perform(.launch(name)) }
        try await settle()
        for runs in [allows, whileUsing, refuses, undecided] {
            try #require(runs.managers.count == 1)
            #expect(runs.managers[0].authorizationStatus == .notDetermined)
            #expect(runs.watchers[0].statuses == [.notDetermined], "the call after creation")
        }

        allows.managers[0].requestWhenInUseAuthorization()
        try await settle()
        #expect(allows.managers[0].authorizationStatus == .authorizedWhenInUse)
        allows.managers[0].requestAlwaysAuthorization()
        try await settle()
        #expect(allows.watchers[0].statuses == [.notDetermined, .authorizedWhenInUse, .authorizedAlways])
        #expect(allows.watchers[0].deprecated == allows.watchers[0].statuses, "the deprecated callback too")

        whileUsing.managers[0].requestAlwaysAuthorization()
        whileUsing.managers[0].requestAlwaysAuthorization()
        refuses.managers[0].requestAlwaysAuthorization()
        refuses.managers[0].requestWhenInUseAuthorization()
        undecided.managers[0].requestAlwaysAuthorization()
        try await settle()
        #expect(whileUsing.watchers[0].statuses == [.notDetermined, .authorizedWhenInUse])
        #expect(refuses.watchers[0].statuses == [.notDetermined, .denied])
        #expect(undecided.watchers[0].statuses == [.notDetermined])
        #expect(undecided.managers[0].authorizationStatus == .notDetermined)
        phone.close()
    }

    @Test("Rule 22: a prompt shows only in the foreground, and the answer is the phone's: it outlives the app")
    func authorizationIsThePhones() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let runs = try install("Shop", answer: .always, on: phone)
        try phone.perform(.launch("Shop"))
        try await settle()
        try phone.perform(.background("Shop"))
        let first = try #require(runs.managers.first)
        first.requestAlwaysAuthorization()
        try await settle()
        #expect(first.authorizationStatus == .notDetermined, "no prompt off screen")
        try phone.perform(.foreground("Shop"))
        first.requestAlwaysAuthorization()
        try await settle()
        #expect(first.authorizationStatus == .authorizedAlways)
        try phone.perform(.terminate("Shop", .forceQuit))
        try phone.perform(.launch("Shop"))
        try await settle()
        try #require(runs.managers.count == 2)
        #expect(runs.managers[1].authorizationStatus == .authorizedAlways)
        #expect(runs.watchers[1].statuses == [.authorizedAlways])
        // Off a phone, Linux asks no permission.
        #expect(CLLocationManager().authorizationStatus == .authorizedAlways)
        phone.close()
    }

    @Test("Rule 22: every location manager of the app hears a change one of them asked for")
    func everyManagerHears() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let runs = Runs()
        try phone.install(AppDescription(name: "Shop", locationAuthorization: .whenInUse)) { _ in
            for _ in 0 ..< 2 {
                let manager = CLLocationManager(options: .init(hci: "sim"))
                let watcher = AuthorizationWatcher()
                manager.delegate = watcher
                runs.managers.append(manager)
                runs.watchers.append(watcher)
            }
        }
        try phone.perform(.launch("Shop"))
        try await settle()
        try #require(runs.managers.count == 2)
        runs.managers[1].requestWhenInUseAuthorization()
        try await settle()
        #expect(runs.watchers.map(\.statuses) == [[.notDetermined, .authorizedWhenInUse], [.notDetermined, .authorizedWhenInUse]])
        phone.close()
    }

    @Test("Rule 22: denied, monitoring fails with regionMonitoringDenied and ranging with denied; nothing is monitored")
    func deniedFails() async throws {
        let phone = SimulatedPhone(clock: testClock)
        let runs = try install("Shop", answer: .denied, on: phone)
        try phone.perform(.launch("Shop"))
        try await settle()
        let manager = try #require(runs.managers.first)
        manager.requestAlwaysAuthorization()
        let region = CLBeaconRegion(uuid: CLLocationManagerWalkTests.walkUUID, major: 1, identifier: "shop")
        manager.startMonitoring(for: region)
        manager.startRangingBeacons(satisfying: region.beaconIdentityConstraint)
        try await settle()
        #expect(runs.watchers[0].failures == ["monitoring shop \(CLError.Code.regionMonitoringDenied.rawValue)",
                                              "ranging \(CLError.Code.denied.rawValue)"])
        #expect(manager.monitoredRegions.isEmpty)
        #expect(manager.rangedBeaconConstraints.isEmpty)
        phone.close()
    }

    @Test("Rule 22: with When In Use a region entry reaches the app in the foreground; off screen it is dropped, not delivered later", arguments: [true, false])
    func whenInUseRegionEvents(onScreen: Bool) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("phone-auth-walk-\(UUID().uuidString).yaml").path
        try CLLocationManagerWalkTests.walkScenario(speed: 2).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let app = LocationApp()
        let region = CLBeaconRegion(uuid: CLLocationManagerWalkTests.walkUUID, major: 1, identifier: "shop")
        try phone.install(AppDescription(name: "Shop", locationAuthorization: .whenInUse)) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            manager.delegate = app.watcher
            manager.requestAlwaysAuthorization()
            manager.startMonitoring(for: region)
            app.manager = manager
        }
        try phone.perform(.launch("Shop"))
        try await settle()
        if !onScreen { try phone.perform(.background("Shop")) }
        // The walker comes into range about 6 s in.
        let entered = await app.watcher.log.first(within: .seconds(40)) { $0 == .didEnter("shop") }
        #expect(app.manager?.authorizationStatus == .authorizedWhenInUse)
        let dropped = phone.timeline.contains { entry in
            if case let .dropped(app: "Shop", event: event, reason: reason) = entry.output {
                event.detail == "didEnterRegion shop" && reason.contains("When In Use")
            } else { false }
        }
        if onScreen {
            #expect(entered != nil)
            #expect(!dropped)
        } else {
            #expect(entered == nil)
            #expect(dropped, "\(phone.timeline.map(\.description).joined(separator: "\n"))")
            #expect(phone.state(of: "Shop") == .suspended, "not woken for it")
        }
        phone.close()
        app.manager?.stopMonitoring(for: region)
    }
}
