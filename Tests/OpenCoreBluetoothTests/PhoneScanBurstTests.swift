import BLE
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

extension PhoneScanTests {
    /// When an advertiser (every 100 ms) started, at `start` or at once if the test's clock
    /// is past it, and when an off-screen scanning app of a phone on `profile` discovered it,
    /// in microseconds of virtual time; the phone's bursts last 5 s every 20 s so that the
    /// test runs a few bursts, not a few hours.
    private func discoveryTime(profile: ScanProfile, start: Int64) async throws -> (started: Int64, found: Int64) {
        let clock = testClock
        let world = try await DevicesWorld.make(devices: 2)
        var policy = PhonePolicy()
        policy.scanProfile = profile
        policy.backgroundScanBurst = 5_000_000
        policy.backgroundScanBurstPeriod = 20_000_000
        let phone = SimulatedPhone(device: world.devices[0], policy: policy)
        let controller = world.names[0]
        let found = FirstDiscovery()
        try phone.install(AppDescription(name: "Finder", modes: .bluetoothCentral)) { _ in
            let app = ScanningApp(services: [Self.lamp], allowDuplicates: false, controller: controller)
            app.onDiscover = { found.time = found.time ?? clock.microseconds }
            found.app = app
        }
        try phone.perform(.launch("Finder"))
        try await waitFor("the scan") { found.app?.manager.isScanning == true }
        try phone.perform(.background("Finder"))
        try await clock.sleep(untilMicroseconds: start)
        let uuid = try #require(BluetoothUUID(Self.lamp.uuidString))
        let started = clock.microseconds
        let session = try await world.devices[1].peripheral.advertise(serviceUUIDs: [uuid], connectable: false, interval: .milliseconds(100))
        try await waitFor("the discovery") { found.time != nil }
        try await session.stop()
        phone.close()
        await world.close()
        return (started, try #require(found.time))
    }

    @Test("Rule 8: on the legacyIOS5to7 profile an off-screen app discovers an advertiser only inside a scan burst; on the modern profile within seconds",
          arguments: [6_000_000, 11_000_000, 27_000_000] as [Int64])
    func legacyScanBursts(start: Int64) async throws {
        let legacy = try await discoveryTime(profile: .legacyIOS5to7, start: start)
        // Bursts at 0–5 s, 20–25 s, 40–45 s of the phone's clock: the advertiser, started
        // outside one, is heard in the next.
        let nextBurst = (legacy.started / 20_000_000 + 1) * 20_000_000
        #expect(legacy.started % 20_000_000 >= 5_000_000, "the advertiser starts between bursts")
        #expect(legacy.found >= nextBurst && legacy.found < nextBurst + 5_000_000, "found at \(legacy.found) µs, the burst starts at \(nextBurst) µs")
        // The modern profile hears it within its first seconds, wherever the bursts would be.
        let modern = try await discoveryTime(profile: .modern, start: start)
        #expect(modern.found - modern.started < 5_000_000, "found \(modern.found - modern.started) µs after it started")
    }
}
