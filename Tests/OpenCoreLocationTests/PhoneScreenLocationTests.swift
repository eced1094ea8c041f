import BLE
import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// The simulated iPhone's screen going off and on, as a Core Location app sees it (iOS
/// research §9, rules 1 and 23; Apple, `CLRegion.notifyEntryStateOnDisplay`), on virtual
/// time.
@Suite("Core Location apps and the screen", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneScreenLocationTests {
    /// An app monitoring the shop beacon's region, with `onDisplay` as its
    /// `notifyEntryStateOnDisplay`; returns once it is inside.
    private func insideShop(on phone: SimulatedPhone, path: String, onDisplay: Bool) async throws -> LocationApp {
        let app = LocationApp()
        try phone.install(AppDescription(name: "Shop")) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            manager.delegate = app.watcher
            manager.requestAlwaysAuthorization()
            let region = CLBeaconRegion(uuid: PhoneBluetoothSwitchLocationTests.uuid, major: 1, identifier: "shop")
            region.notifyEntryStateOnDisplay = onDisplay
            manager.startMonitoring(for: region)
            app.manager = manager
        }
        try phone.perform(.launch("Shop"))
        let entered = await app.watcher.log.first { $0 == .didEnter("shop") }
        try #require(entered != nil)
        return app
    }

    private func file() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("screen-\(UUID().uuidString).yaml").path
        try PhoneBluetoothSwitchLocationTests.scenario(stopsAt: nil).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func woken(_ phone: SimulatedPhone) -> Bool {
        phone.timeline.contains { $0.output == .stateChanged(app: "Shop", from: .suspended, to: .background) }
    }

    @Test("Screen off: the app on screen goes to the background and is suspended; on, with notifyEntryStateOnDisplay, it is woken with didDetermineState inside")
    func screenOnTellsTheState() async throws {
        let path = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 3)
        let app = try await insideShop(on: phone, path: path, onDisplay: true)
        let log = app.watcher.log

        try phone.perform(.screen(on: false))
        #expect(phone.state(of: "Shop") == .background)
        try await testClock.sleep(for: .seconds(30))
        #expect(phone.state(of: "Shop") == .suspended)
        #expect(!woken(phone))
        let before = log.count
        try phone.perform(.screen(on: true))
        let told = await log.first(from: before) { $0 == .didDetermineState(.inside, "shop") }
        #expect(told != nil, "\(log.events[before...])")
        #expect(woken(phone), "\(phone.timeline.map(\.description).joined(separator: "\n"))")
        // The lock screen: no app comes back on screen by itself.
        #expect(phone.state(of: "Shop") != .foreground)
        app.manager?.stopMonitoring(for: CLBeaconRegion(uuid: PhoneBluetoothSwitchLocationTests.uuid, major: 1, identifier: "shop"))
        phone.close()
    }

    @Test("Screen on without notifyEntryStateOnDisplay: the suspended app hears nothing and stays suspended")
    func screenOnWithoutTheFlag() async throws {
        let path = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, seed: 3)
        let app = try await insideShop(on: phone, path: path, onDisplay: false)
        let log = app.watcher.log

        try phone.perform(.screen(on: false))
        try await testClock.sleep(for: .seconds(30))
        let before = log.count
        try phone.perform(.screen(on: true))
        try await testClock.sleep(for: .seconds(20))
        #expect(log.events[before...].isEmpty, "\(log.events[before...])")
        #expect(phone.state(of: "Shop") == .suspended)
        #expect(!woken(phone))
        app.manager?.stopMonitoring(for: CLBeaconRegion(uuid: PhoneBluetoothSwitchLocationTests.uuid, major: 1, identifier: "shop"))
        phone.close()
    }
}
