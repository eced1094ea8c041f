import BLE
import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// Rule 21's second half as a Core Location app of the simulated iPhone sees it: the
/// phone's `PhonePolicy` decides whether an exit is late or missed (iOS research §7 and §9),
/// on virtual time.
@Suite("Core Location apps and late or missed exits", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneExitTimingTests {
    /// The shop app on `phone`, launched and on screen, monitoring the beacon's region from
    /// the scenario in `path` with a 10 s exit period; returns once it is inside, with the
    /// time of its entry.
    private func insideShop(on phone: SimulatedPhone, path: String) async throws -> (LocationApp, entered: Int64) {
        let app = LocationApp()
        try phone.install(AppDescription(name: "Shop")) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            manager.delegate = app.watcher
            manager.requestAlwaysAuthorization()
            manager.startMonitoring(for: CLBeaconRegion(uuid: PhoneBluetoothSwitchLocationTests.uuid, major: 1, identifier: "shop"))
            app.manager = manager
        }
        try phone.perform(.launch("Shop"))
        let entered = await app.watcher.log.first { $0 == .didEnter("shop") }
        try #require(entered != nil)
        return (app, testClock.microseconds)
    }

    /// The scenario of a beacon that stops advertising 20 s into the world, in a temporary
    /// file the caller removes.
    private func file() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("exit-timing-\(UUID().uuidString).yaml").path
        try PhoneBluetoothSwitchLocationTests.scenario(stopsAt: 20).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("With exits never late or missed, the app hears didExit one exit period after the beacon's last packet")
    func punctualExit() async throws {
        let path = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let phone = SimulatedPhone(clock: testClock, policy: .punctualExits, seed: 5)
        let (app, entered) = try await insideShop(on: phone, path: path)
        let exit = await app.watcher.log.first { $0 == .didExit("shop") }
        #expect(exit != nil)
        // The entry comes within 2 s of the world's start and the exit at the first 1 s tick
        // after the 10 s period that follows the last packet, at 20 s.
        let elapsed = Double(testClock.microseconds - entered) / 1e6
        #expect((27 ... 32).contains(elapsed), "didExit \(elapsed) s after didEnter")
        phone.close()
    }

    @Test("On a phone that misses every exit, the app never hears didExit and the region's state stays inside")
    func missedExit() async throws {
        let path = try file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var policy = PhonePolicy()
        policy.exitMissProbability = 1
        let phone = SimulatedPhone(clock: testClock, policy: policy, seed: 5)
        let (app, _) = try await insideShop(on: phone, path: path)
        let log = app.watcher.log
        // Minutes past the last packet and any late exit (10 s + 90 s).
        try await testClock.sleep(for: .seconds(180))
        #expect(!log.events.contains(.didExit("shop")), "\(log.events)")
        #expect(!log.events.contains(.didDetermineState(.outside, "shop")))
        let asked = log.count
        app.manager?.requestState(for: CLBeaconRegion(uuid: PhoneBluetoothSwitchLocationTests.uuid, major: 1, identifier: "shop"))
        let answer = await log.first(from: asked) { if case .didDetermineState = $0 { true } else { false } }
        #expect(answer == .didDetermineState(.inside, "shop"))
        phone.close()
    }
}
