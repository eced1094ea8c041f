import BLE
import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// Bluetooth switched off and on in the simulated iPhone's Settings, as a Core Location app
/// sees it (iOS research §7 and §9, rule 22; Stack Overflow answer 34062216; Apple,
/// `CLError.Code.rangingUnavailable`), on virtual time.
@Suite("Core Location apps and the Bluetooth switch", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneBluetoothSwitchLocationTests {
    static let uuid = UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5") ?? UUID()

    /// A phone 2 m from a beacon that stops advertising at `stopsAt` seconds, if given.
    static func scenario(stopsAt: Int?) -> String {
        """
        name: bluetooth-switch
        seed: 1
        duration: 300
        timing: realistic
        radio: {referenceLossDB: 40, pathLossExponent: 2.5, shadowingSigmaDB: 0, captureMarginDB: 6}
        devices:
          - name: shop beacon
            address: "E2:C5:6D:00:00:01"
            addressType: random
            position: [0, 0, 1.2]
            txPower: -19
            advertise:
              type: nonconn_ind
              interval: 100
              iBeacon: {uuid: \(uuid.uuidString), major: 1, minor: 1, measuredPower: -59}
          - name: app phone
            address: "F0:5B:1E:00:01:03"
            addressType: public
            host: external
            position: [2, 0, 1.2]
        """ + (stopsAt.map { "\nactions:\n  - {at: \($0), stopAdvertising: shop beacon}\n" } ?? "\n")
    }

    /// The shop app on `phone`, launched and on screen, monitoring and ranging the beacon's
    /// region from the scenario in `path`; returns once it is inside the region.
    private func insideShop(on phone: SimulatedPhone, path: String) async throws -> LocationApp {
        let app = LocationApp()
        try phone.install(AppDescription(name: "Shop")) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            manager.delegate = app.watcher
            manager.requestAlwaysAuthorization()
            let region = CLBeaconRegion(uuid: Self.uuid, major: 1, identifier: "shop")
            manager.startMonitoring(for: region)
            manager.startRangingBeacons(satisfying: region.beaconIdentityConstraint)
            app.manager = manager
        }
        try phone.perform(.launch("Shop"))
        let entered = await app.watcher.log.first { $0 == .didEnter("shop") }
        try #require(entered != nil)
        return app
    }

    /// Writes the scenario to a temporary file, removed by the caller.
    private func file(stopsAt: Int?) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bt-switch-\(UUID().uuidString).yaml").path
        try Self.scenario(stopsAt: stopsAt).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func isRanging(_ event: BeaconEvent) -> Bool { if case .didRange = event { true } else { false } }

    private func stop(_ app: LocationApp, _ phone: SimulatedPhone) {
        let region = CLBeaconRegion(uuid: Self.uuid, major: 1, identifier: "shop")
        app.manager?.stopRangingBeacons(satisfying: region.beaconIdentityConstraint)
        app.manager?.stopMonitoring(for: region)
        phone.close()
    }

    @Test("Switched off inside a region: no exit, no state, no answer to requestState; ranging fails with rangingUnavailable and ranges nothing")
    func switchedOffInside() async throws {
        let path = try file(stopsAt: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let app = try await insideShop(on: phone, path: path)
        let manager = try #require(app.manager)
        let log = app.watcher.log

        try phone.perform(.bluetooth(on: false))
        let failed = await log.first { $0 == .didFailRanging(code: CLError.Code.rangingUnavailable.rawValue) }
        #expect(failed != nil)
        let switched = log.count
        manager.requestState(for: CLBeaconRegion(uuid: Self.uuid, major: 1, identifier: "shop"))
        // Far longer than the exit period (10 s) and the ranging interval (1 s).
        try await testClock.sleep(for: .seconds(40))
        let whileOff = Array(log.events[switched...])
        #expect(whileOff.isEmpty, "\(whileOff)")
        #expect(!log.events.contains(.didExit("shop")))
        #expect(!log.events.contains(.didDetermineState(.outside, "shop")))
        #expect(!phone.isBluetoothOn)
        stop(app, phone)
    }

    @Test("Control Center's button off: beacon regions and ranging go on (Radius Networks, 2018), unlike the Settings switch")
    func controlCenterKeepsBeacons() async throws {
        let path = try file(stopsAt: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let app = try await insideShop(on: phone, path: path)
        let log = app.watcher.log

        try phone.perform(.controlCenterBluetooth(on: false))
        let switched = log.count
        let ranged = await log.first(from: switched) { if case .didRange = $0 { true } else { false } }
        #expect(ranged != nil)
        #expect(!log.events[switched...].contains(.didFailRanging(code: CLError.Code.rangingUnavailable.rawValue)))
        stop(app, phone)
    }

    @Test("Back on with the beacon still there: the held requestState answers unknown, then the state is inside again with no entry and no exit")
    func backOnInside() async throws {
        let path = try file(stopsAt: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let app = try await insideShop(on: phone, path: path)
        let manager = try #require(app.manager)
        let log = app.watcher.log

        try phone.perform(.bluetooth(on: false))
        try await testClock.sleep(for: .seconds(1))
        manager.requestState(for: CLBeaconRegion(uuid: Self.uuid, major: 1, identifier: "shop"))
        try await testClock.sleep(for: .seconds(20))
        let switchedOn = log.count
        try phone.perform(.bluetooth(on: true))
        let inside = await log.first(from: switchedOn) { $0 == .didDetermineState(.inside, "shop") }
        #expect(inside != nil)
        let afterOn = Array(log.events[switchedOn...])
        let unknown = afterOn.firstIndex(of: .didDetermineState(.unknown, "shop"))
        let determined = afterOn.firstIndex(of: .didDetermineState(.inside, "shop"))
        #expect(unknown.flatMap { unknown in determined.map { unknown < $0 } } == true, "\(afterOn)")
        // Ranging reports the beacon again.
        let ranged = await log.first(from: switchedOn) { if case let .didRange(beacons, _) = $0 { !beacons.isEmpty } else { false } }
        #expect(ranged != nil)
        #expect(log.events.filter { $0 == .didEnter("shop") }.count == 1)
        #expect(!log.events.contains(.didExit("shop")))
        stop(app, phone)
    }

    @Test("A manager made with Bluetooth off: ranging fails at once, the region stays unknown; switched on, inside with no entry")
    func madeWhileOff() async throws {
        let path = try file(stopsAt: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        try phone.perform(.bluetooth(on: false))
        let app = LocationApp()
        try phone.install(AppDescription(name: "Shop")) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            manager.delegate = app.watcher
            manager.requestAlwaysAuthorization()
            let region = CLBeaconRegion(uuid: Self.uuid, major: 1, identifier: "shop")
            manager.startMonitoring(for: region)
            manager.startRangingBeacons(in: region)
            app.manager = manager
        }
        try phone.perform(.launch("Shop"))
        let log = app.watcher.log
        let failed = await log.first { $0 == .didFailRanging(code: CLError.Code.rangingUnavailable.rawValue) }
        #expect(failed != nil)
        try await testClock.sleep(for: .seconds(20))
        #expect(!log.events.contains { if case .didDetermineState = $0 { true } else { isRanging($0) } }, "\(log.events)")
        try phone.perform(.bluetooth(on: true))
        let inside = await log.first { $0 == .didDetermineState(.inside, "shop") }
        #expect(inside != nil)
        #expect(!log.events.contains(.didEnter("shop")))
        app.manager?.stopRangingBeacons(in: CLBeaconRegion(uuid: Self.uuid, major: 1, identifier: "shop"))
        stop(app, phone)
    }

    @Test("Back on after the beacon left: the state becomes outside an exit period later, with no exit")
    func backOnAfterTheBeaconLeft() async throws {
        // The beacon stops 20 s into the world, while Bluetooth is off.
        let path = try file(stopsAt: 20)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let app = try await insideShop(on: phone, path: path)
        let log = app.watcher.log

        try phone.perform(.bluetooth(on: false))
        try await testClock.sleep(for: .seconds(40))
        let switchedOn = log.count
        try phone.perform(.bluetooth(on: true))
        let outside = await log.first(from: switchedOn) { $0 == .didDetermineState(.outside, "shop") }
        #expect(outside != nil)
        // The ranging ticks after it report no beacon.
        try await testClock.sleep(for: .seconds(2))
        #expect(log.events[switchedOn...].allSatisfy { if case let .didRange(beacons, _) = $0 { beacons.isEmpty } else { true } })
        #expect(!log.events.contains(.didExit("shop")), "\(log.events)")
        stop(app, phone)
    }
}
