import BLE
import Foundation
import OpenCoreLocation
import OpenUserNotifications
import SimulatedTesting
import Testing

/// What an app's launch made.
@MainActor
final class LocationRun {
    var managers: [CLLocationManager] = []
    var centers: [UNUserNotificationCenter] = []
}

/// `UNLocationNotificationTrigger` on a beacon region: the phone's region monitoring, not
/// the app, delivers it, on virtual time.
@Suite("Location-triggered notifications on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct LocationTriggerTests {
    @Test("A location trigger on a beacon region reaches the lock screen when the walker enters it while the app is suspended or terminated, once, without waking the app",
          arguments: [nil, TerminationReason.system, .forceQuit])
    func entryWhileSuspended(termination: TerminationReason?) async throws {
        let path = try walkFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 5)
        let run = LocationRun()
        try phone.install(AppDescription(name: "Shop")) { _ in
            // Location authorization is needed; When In Use suffices (Apple).
            let locations = CLLocationManager(options: .init(hci: "sim:\(path)"))
            locations.requestWhenInUseAuthorization()
            let center = UNUserNotificationCenter.current()
            center.regionMonitoringOptions = .init(hci: "sim:\(path)", exitPeriod: .seconds(10))
            center.requestAuthorization(options: [.alert, .sound]) { granted, _ in
                guard granted else { return }
                let content = UNMutableNotificationContent()
                content.title = "Welcome to the shop"
                content.body = "10 % off today"
                let region = CLBeaconRegion(uuid: walkUUID, major: 1, identifier: "shop")
                region.notifyOnExit = false
                center.add(UNNotificationRequest(identifier: "welcome", content: content,
                                                 trigger: UNLocationNotificationTrigger(region: region, repeats: false)))
            }
            run.managers.append(locations)
            run.centers.append(center)
        }
        try phone.perform(.launch("Shop"))
        try await testClock.sleep(for: .milliseconds(100))
        try phone.perform(.background("Shop"))
        if let termination {
            try await testClock.sleep(for: .seconds(1))
            try phone.perform(.terminate("Shop", termination))
        }
        #expect(phone.locationAuthorization(of: "Shop") == .whenInUse)

        try await wait { !phone.lockScreenLog.isEmpty }
        let entry = try #require(phone.lockScreenLog.first)
        #expect(entry.title == "Welcome to the shop" && entry.presentation == .lockScreen)
        // The walker reaches the beacon's range about 6 s in; the app was suspended at 5.1 s
        // (or terminated at 1.1 s).
        let off = try #require(phone.timeline.first { entry in
            if case .stateChanged(app: "Shop", from: .background, to: _) = entry.output { true } else { false }
        })
        #expect(entry.time > off.time && entry.time < 15_000_000, "\(phone.timeline.map(\.description))")
        let expected: AppState = termination.map { .terminated($0) } ?? .suspended
        #expect(phone.state(of: "Shop") == expected, "the system delivered it; the app was neither woken nor relaunched")
        #expect(run.centers.count == 1)
        let center = try #require(run.centers.first)
        #expect(await center.pendingNotificationRequests().isEmpty)
        // Not again: the walker leaves and nothing more is shown.
        try await testClock.sleep(for: .seconds(30))
        #expect(phone.lockScreenLog.count == 1)
        center.stopRegionMonitoring()
        phone.close()
    }

    @Test("Without location authorization a region crossing delivers nothing, and the timeline says why")
    func needsLocationAuthorization() async throws {
        let phone = SimulatedPhone(clock: testClock)
        try phone.install(AppDescription(name: "Shop", locationAuthorization: .denied)) { _ in _ = UNUserNotificationCenter.current() }
        try phone.perform(.launch("Shop"))
        try await testClock.sleep(for: .milliseconds(100))
        let center = UNUserNotificationCenter.center(for: "Shop", on: phone)
        _ = try await center.requestAuthorization(options: [.alert])
        _ = phone.requestLocationAuthorization(for: "Shop", always: false)
        let content = UNMutableNotificationContent()
        content.title = "Welcome"
        // The region is monitored on a world without its beacon: nothing crosses by itself.
        center.regionMonitoringOptions = .init(hci: "sim:empty")
        try await center.add(UNNotificationRequest(identifier: "welcome", content: content,
                                                   trigger: UNLocationNotificationTrigger(region: CLBeaconRegion(uuid: walkUUID, identifier: "shop"), repeats: true)))
        phone.notificationRegionCrossed("shop", of: "Shop", entered: true)
        #expect(phone.lockScreenLog.isEmpty)
        #expect(phone.timeline.contains { entry in
            if case let .dropped(app: "Shop", event: _, reason: reason) = entry.output { reason.contains("location authorization") } else { false }
        })
        #expect(await center.pendingNotificationRequests().map(\.identifier) == ["welcome"])
        center.stopRegionMonitoring()
        phone.close()
    }
}
