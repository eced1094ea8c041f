import BLE
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// The pauses of an off-screen app's advertising on the simulated iPhone (research §9,
/// rule 12, `bgAdvDropout`), heard by a plain scanner, on virtual time.
@Suite("Background advertising dropouts on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneAdvertisingDropoutTests {
    /// The longest silence, in microseconds, between two advertisements of an app that
    /// advertises off screen for 30 s on a phone with `dropouts`, as a continuous scan hears them.
    private func longestSilence(dropouts: AdvertisingDropouts?) async throws -> Int64 {
        let world = try await DevicesWorld.make(devices: 2)
        var policy = PhonePolicy()
        policy.backgroundAdvertisingDropouts = dropouts
        let phone = SimulatedPhone(device: world.devices[0], policy: policy, seed: 3)
        let controller = world.names[0]
        let launches = Launches<AdvertisingApp>()
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothPeripheral)) { _ in
            launches.apps.append(AdvertisingApp(controller: controller))
        }
        try phone.perform(.launch("Pulse"))
        try await waitFor("the advertising") { launches.apps.first?.manager.isAdvertising == true }
        try phone.perform(.background("Pulse"))
        try await testClock.sleep(for: .seconds(1))
        let clock = testClock
        let address = world.addresses[0]
        let scan = try await world.devices[1].central.scan(options: ScanOptions(allowDuplicates: true))
        let end = clock.microseconds + 30_000_000
        let times = await withTaskGroup(of: [Int64].self) { group in
            group.addTask {
                var times: [Int64] = []
                for await advertisement in scan where advertisement.address.value == address.value {
                    times.append(clock.microseconds)
                }
                return times
            }
            group.addTask {
                try? await clock.sleep(untilMicroseconds: end)
                await scan.stop()
                return []
            }
            var all: [Int64] = []
            for await times in group { all += times }
            return all.sorted()
        }
        #expect(launches.apps.first?.manager.isAdvertising == true, "the system holds the advertising back; the app still advertises")
        phone.close()
        await world.close()
        #expect(times.count > 20)
        return zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
    }

    @Test("Rule 12: with dropouts on, an off-screen app's advertising falls silent for the pauses (1–2 s every 2–3 s), and only for them")
    func pauses() async throws {
        let dropouts = AdvertisingDropouts(between: 2_000_000 ... 3_000_000, pause: 1_000_000 ... 2_000_000)
        let silence = try await longestSilence(dropouts: dropouts)
        #expect(silence >= 900_000 && silence < 2_600_000, "longest silence \(silence) µs")
    }

    @Test("Rule 12: without dropouts (the default) the off-screen advertising never falls silent for long")
    func noPausesByDefault() async throws {
        let silence = try await longestSilence(dropouts: nil)
        #expect(silence < 900_000, "longest silence \(silence) µs")
    }
}
