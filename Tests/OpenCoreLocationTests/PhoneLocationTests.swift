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
            let region = CLBeaconRegion(uuid: CLLocationManagerWalkTests.walkUUID, major: 1, identifier: "shop")
            manager.startMonitoring(for: region)
            manager.startRangingBeacons(satisfying: region.beaconIdentityConstraint)
            app.manager = manager
        }
        try phone.perform(.launch("Shop"))
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
}
