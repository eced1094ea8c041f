import BLE
import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// The significant-change and visit services of an app of a simulated iPhone under the
/// phone's rules (docs/phone.md): they wake a suspended app, relaunch a terminated one with
/// `PhoneLaunchOptions.location`, and relaunch no app the user force-quit; on virtual time.
@Suite("Significant changes and visits on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneLocationServicesTests {
    /// A bus ride at 10 m/s: a significant change at once, then every 5 minutes.
    static let bus = "{waypoints: [[20000, 0, 1.2]], speed: 10}"

    /// Each launch of the app: its delegate and its options.
    @MainActor
    final class Runs {
        var loggers: [MovesLogger] = []
        var options: [PhoneLaunchOptions] = []
    }

    /// Installs "Moves", whose launch entry point makes a manager, asks for Always and
    /// starts `start` on it (at every launch, as Apple asks of a relaunched app).
    static func install(on phone: SimulatedPhone, path: String, runs: Runs,
                        start: @escaping @MainActor @Sendable (CLLocationManager) -> Void) throws {
        try phone.install(AppDescription(name: "Moves")) { options in
            let logger = MovesLogger(manager: CLLocationManager(options: .init(hci: "sim:\(path)")))
            logger.manager.delegate = logger
            logger.manager.requestAlwaysAuthorization()
            start(logger.manager)
            runs.loggers.append(logger)
            runs.options.append(options)
        }
    }

    /// Whether the timeline shows Moves woken from suspension.
    static func woken(_ phone: SimulatedPhone) -> Bool {
        phone.timeline.contains { $0.output == .stateChanged(app: "Moves", from: .suspended, to: .background) }
    }

    @Test("A suspended app is woken in the background for a significant change, and suspended after the wake window")
    func suspendedWokenForSignificantChange() async throws {
        let path = try VisitsAndSignificantChangesTests.scenario(route: Self.bus)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let runs = Runs()
        try Self.install(on: phone, path: path, runs: runs) { $0.startMonitoringSignificantLocationChanges() }
        try phone.perform(.launch("Moves"))
        try await testClock.sleep(seconds: 1)
        try phone.perform(.background("Moves"))
        try await testClock.sleep(seconds: 200)
        #expect(phone.state(of: "Moves") == .suspended)
        #expect(runs.loggers.first?.locations.count == 1)
        // The next change, 300 s in, wakes it; the wake window (10 s) is still open at 305 s.
        try await testClock.sleep(seconds: 105)
        #expect(phone.state(of: "Moves") == .background)
        #expect(Self.woken(phone))
        #expect(runs.loggers.first?.locations.count == 2)
        try await testClock.sleep(seconds: 20)
        #expect(phone.state(of: "Moves") == .suspended)
        runs.loggers.first?.manager.stopMonitoringSignificantLocationChanges()
        phone.close()
    }

    @Test("With When In Use, a significant change reaches the app only on screen: the suspended app is not woken and the terminated one not relaunched")
    func whenInUseOnlyInUse() async throws {
        let path = try VisitsAndSignificantChangesTests.scenario(route: Self.bus)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let runs = Runs()
        try phone.install(AppDescription(name: "Moves", locationAuthorization: .whenInUse)) { options in
            let logger = MovesLogger(manager: CLLocationManager(options: .init(hci: "sim:\(path)")))
            logger.manager.delegate = logger
            logger.manager.requestWhenInUseAuthorization()
            logger.manager.startMonitoringSignificantLocationChanges()
            runs.loggers.append(logger)
            runs.options.append(options)
        }
        try phone.perform(.launch("Moves"))
        try await testClock.sleep(seconds: 1)
        #expect(runs.loggers.first?.locations.count == 1, "on screen, the first change arrives")
        try phone.perform(.background("Moves"))
        try await testClock.sleep(seconds: 310)
        #expect(!Self.woken(phone))
        #expect(runs.loggers.first?.locations.count == 1)
        let dropped = phone.timeline.contains { entry in
            if case let .dropped(app: "Moves", event, reason) = entry.output {
                event.detail.hasPrefix("didUpdateLocations") && reason.contains("When In Use")
            } else { false }
        }
        #expect(dropped, "\(phone.timeline.map(\.description).joined(separator: "\n"))")
        try phone.perform(.terminate("Moves", .system))
        try await testClock.sleep(seconds: 300)
        #expect(runs.options.count == 1, "never relaunched")
        runs.loggers.first?.manager.stopMonitoringSignificantLocationChanges()
        phone.close()
    }

    @Test("A terminated app is relaunched with the location launch option and its new manager gets the update")
    func terminatedRelaunchedForSignificantChange() async throws {
        let path = try VisitsAndSignificantChangesTests.scenario(route: Self.bus)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let runs = Runs()
        try Self.install(on: phone, path: path, runs: runs) { $0.startMonitoringSignificantLocationChanges() }
        try phone.perform(.launch("Moves"))
        try await testClock.sleep(seconds: 1)
        try phone.perform(.terminate("Moves", .system))
        try await testClock.sleep(seconds: 320)
        #expect(runs.options.map(\.location) == [false, true])
        #expect(phone.timeline.contains { if case .relaunched(app: "Moves", _) = $0.output { true } else { false } })
        #expect((runs.loggers.last?.locations.count ?? 0) >= 1, "the relaunched app's manager heard no update")
        // The first run's delegate hears nothing after the end.
        #expect(runs.loggers.first?.locations.count == 1)
        for logger in runs.loggers { logger.manager.stopMonitoringSignificantLocationChanges() }
        phone.close()
    }

    @Test("An app the user force-quit is not relaunched for a significant change, even with beacon relaunches on")
    func forceQuitNotRelaunched() async throws {
        let path = try VisitsAndSignificantChangesTests.scenario(route: Self.bus)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var policy = PhonePolicy()
        policy.beaconRelaunchAfterForceQuit = true
        let phone = SimulatedPhone(clock: testClock, policy: policy, seed: 5)
        let runs = Runs()
        try Self.install(on: phone, path: path, runs: runs) { $0.startMonitoringSignificantLocationChanges() }
        try phone.perform(.launch("Moves"))
        try await testClock.sleep(seconds: 1)
        try phone.perform(.terminate("Moves", .forceQuit))
        try await testClock.sleep(seconds: 320)
        #expect(runs.options.count == 1)
        let dropped = phone.timeline.contains {
            if case let .dropped("Moves", event, reason) = $0.output {
                event.detail.contains("significant change") && reason.contains("force-quit")
            } else {
                false
            }
        }
        #expect(dropped, "\(phone.timeline)")
        for logger in runs.loggers { logger.manager.stopMonitoringSignificantLocationChanges() }
        phone.close()
    }

    @Test("A visit reaches a suspended app by waking it")
    func visitWakesSuspendedApp() async throws {
        // 150 m east at 1.5 m/s, 600 s at the café, then 300 m on.
        let path = try VisitsAndSignificantChangesTests.scenario(route: "{waypoints: [{at: [150, 0, 1.2], pause: 600}, [450, 0, 1.2]], speed: 1.5}")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let runs = Runs()
        try Self.install(on: phone, path: path, runs: runs) { $0.startMonitoringVisits() }
        try phone.perform(.launch("Moves"))
        try await testClock.sleep(seconds: 1)
        try phone.perform(.background("Moves"))
        try await testClock.sleep(seconds: 30)
        #expect(phone.state(of: "Moves") == .suspended)
        try await testClock.sleep(seconds: 970)
        #expect(runs.loggers.first?.visits.count == 2)
        #expect(Self.woken(phone))
        let deliveries = phone.timeline.filter {
            if case let .deliver("Moves", events) = $0.output { events.contains { $0.detail == "didVisit" } } else { false }
        }
        #expect(deliveries.count == 2, "\(phone.timeline)")
        runs.loggers.first?.manager.stopMonitoringVisits()
        phone.close()
    }
}
