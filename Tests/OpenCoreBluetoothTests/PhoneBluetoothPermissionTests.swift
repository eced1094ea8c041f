import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

/// What `CBManager.authorization` said in an app's launch entry point, before and after its
/// first manager.
@MainActor
final class AuthorizationSeen {
    var before: [CBManagerAuthorization] = []
    var after: [CBManagerAuthorization] = []
}

/// Each app's Bluetooth permission on the simulated iPhone (Apple, `CBManagerAuthorization`,
/// `CBManager.authorization`, `NSBluetoothAlwaysUsageDescription`), on virtual time.
@Suite("Bluetooth permission on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneBluetoothPermissionTests {
    /// A phone on a fresh neighbourhood with `app` running a heart-rate central.
    private func phone(_ name: String, _ app: AppDescription) async throws
        -> (BLEDevice, SimulatedPhone, Launches<HeartRateCentral>, AuthorizationSeen) {
        let device = try await neighbourhood(name)
        let phone = SimulatedPhone(device: device)
        let launches = Launches<HeartRateCentral>()
        let seen = AuthorizationSeen()
        try phone.install(app) { _ in
            seen.before.append(CBManager.authorization)
            launches.apps.append(HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: name]))
            seen.after.append(CBManager.authorization)
        }
        return (device, phone, launches, seen)
    }

    @Test("Refused, the app's managers report unauthorized and do nothing; the prompt was shown once, and the answer is kept")
    func refused() async throws {
        let (device, phone, launches, seen) = try await phone("phone-permission-refused", AppDescription(name: "Shy", bluetoothAuthorization: .deny))
        try phone.perform(.launch("Shy"))
        #expect(await eventually { launches.apps.first?.log == ["didUpdateState 3"] })
        let app = try #require(launches.apps.first)
        #expect(app.manager.state == .unauthorized)
        #expect(app.manager.authorization == .denied)
        #expect(seen.before == [.notDetermined])
        #expect(seen.after == [.denied])
        app.manager.scanForPeripherals(withServices: nil)
        #expect(!app.manager.isScanning)
        // Switching Bluetooth changes nothing for it.
        try phone.perform(.bluetooth(on: false))
        try phone.perform(.bluetooth(on: true))
        try await testClock.sleep(for: .seconds(3))
        #expect(app.log == ["didUpdateState 3"])
        #expect(app.sensor == nil)

        try phone.perform(.terminate("Shy", .forceQuit))
        try phone.perform(.launch("Shy"))
        #expect(await eventually { launches.apps.count == 2 && launches.apps[1].log == ["didUpdateState 3"] })
        #expect(seen.before == [.notDetermined, .denied])
        let prompts = phone.timeline.filter { if case let .alert("Shy", message) = $0.output { message.contains("Would Like to Use Bluetooth") } else { false } }
        #expect(prompts.count == 1)
        #expect(phone.bluetoothAuthorization(of: "Shy") == .denied)
        phone.close()
        await device.close()
    }

    @Test("Allowed by default: the prompt is answered OK, the manager is allowedAlways and powers on")
    func allowed() async throws {
        let (device, phone, launches, seen) = try await phone("phone-permission-allowed", AppDescription(name: "Pulse"))
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 1 })
        #expect(launches.apps.first?.manager.authorization == .allowedAlways)
        #expect(seen.before == [.notDetermined])
        #expect(seen.after == [.allowedAlways])
        #expect(phone.timeline.contains { if case let .alert("Pulse", message) = $0.output { message.hasSuffix(": OK") } else { false } })
        phone.close()
        await device.close()
    }

    @Test("An app without NSBluetoothAlwaysUsageDescription is terminated by its first manager, with the privacy reason on the timeline")
    func missingUsageDescription() async throws {
        let device = try await neighbourhood("phone-permission-leaky")
        let phone = SimulatedPhone(device: device)
        let launches = Launches<HeartRateCentral>()
        try phone.install(AppDescription(name: "Leaky", bluetoothUsageDescription: nil)) { _ in
            // The launch code goes on after the first manager, as the crash is not immediate here.
            for _ in 0 ..< 2 { launches.apps.append(HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "phone-permission-leaky"])) }
        }
        try phone.perform(.launch("Leaky"))
        #expect(await eventually { phone.state(of: "Leaky") == .terminated(.crash) })
        let crashes = phone.timeline.filter { $0.output == .crashed(app: "Leaky", reason: PhoneCore.bluetoothUsageCrashReason) }
        #expect(crashes.count == 1)
        try await testClock.sleep(for: .seconds(3))
        // No manager told its delegate anything: the app is gone.
        #expect(launches.apps.count == 2)
        #expect(launches.apps.allSatisfy { $0.log.isEmpty && $0.manager.state == .unknown })
        phone.close()
        await device.close()
    }
}
