import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing

/// Rule 16's relaunch profiles and restarts on the simulated iPhone with an Apple-style
/// heart-rate central against the neighbourhood's Polar H10 (a measurement a second), on
/// virtual time (research §5, "When the system relaunches"; TN3115).
@Suite("Restarts and relaunch profiles on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneRestartTests {
    /// A phone on a fresh neighbourhood with a heart-rate app that restores state; its
    /// managers use `name`, and it connects asking the system to reconnect after a drop.
    private func phoneWithPulse(_ name: String, policy: PhonePolicy, accessorySetupKit: Bool = false)
        async throws -> (BLEDevice, SimulatedPhone, Launches<HeartRateCentral>) {
        let device = try await neighbourhood(name)
        let phone = SimulatedPhone(device: device, policy: policy)
        let launches = Launches<HeartRateCentral>()
        let options = [OpenCoreBluetoothControllerOptionKey: name, CBCentralManagerOptionRestoreIdentifierKey: "pulse"]
        let description = AppDescription(name: "Pulse", modes: .bluetoothCentral, restoresState: true, usesAccessorySetupKit: accessorySetupKit)
        try phone.install(description) { launch in
            launches.options.append(launch)
            launches.apps.append(HeartRateCentral(options: options, connectOptions: [CBConnectPeripheralOptionEnableAutoReconnect: true]))
        }
        return (device, phone, launches)
    }

    private func reasons(_ phone: SimulatedPhone) -> [String] {
        phone.timeline.compactMap { if case let .dropped(app: "Pulse", _, reason) = $0.output { reason } else { nil } }
    }

    @Test("Rule 16: a restart ends the app and its link; nothing relaunches it until the first unlock, after which the system's reconnection does")
    func restartWaitsForFirstUnlock() async throws {
        let (device, phone, launches) = try await phoneWithPulse("phone-restart", policy: PhonePolicy())
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        try phone.perform(.background("Pulse"))
        try phone.perform(.reboot)
        #expect(phone.state(of: "Pulse") == .terminated(.reboot))
        try await testClock.sleep(for: .seconds(5))
        #expect(launches.apps.count == 1)
        #expect(reasons(phone).contains("the phone has not been unlocked since it restarted"), "\(reasons(phone))")
        #expect(throws: PhoneError.self) { try phone.perform(.launch("Pulse")) }
        try phone.perform(.unlock)
        #expect(await eventually { launches.apps.count == 2 && launches.apps[1].measurements.count >= 2 })
        #expect(launches.options.last == PhoneLaunchOptions(bluetoothCentrals: ["pulse"]))
        phone.close()
        await device.close()
    }

    @Test("Rule 16: on iOS 10 the restarted app is not relaunched after the first unlock")
    func iOS10Restart() async throws {
        var policy = PhonePolicy()
        policy.relaunchProfile = .iOS10
        let (device, phone, launches) = try await phoneWithPulse("phone-restart-ios10", policy: policy)
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        let sensor = try #require(launches.apps.first?.sensor)
        try phone.perform(.reboot)
        try phone.perform(.unlock)
        #expect(await eventually { sensor.state == .disconnected })
        try await testClock.sleep(for: .seconds(5))
        #expect(launches.apps.count == 1)
        #expect(!phone.timeline.contains { if case .relaunched = $0.output { true } else { false } })
        phone.close()
        await device.close()
    }

    @Test("Rule 16: on iOS 26 an app using AccessorySetupKit keeps its link through a force-quit and is relaunched by the next notification")
    func iOS26AccessorySetupKit() async throws {
        var policy = PhonePolicy()
        policy.relaunchProfile = .iOS26
        let (device, phone, launches) = try await phoneWithPulse("phone-ios26-kit", policy: policy, accessorySetupKit: true)
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        try phone.perform(.terminate("Pulse", .forceQuit))
        #expect(await eventually { launches.apps.count == 2 && launches.apps[1].measurements.count >= 2 })
        #expect(launches.options.last == PhoneLaunchOptions(bluetoothCentrals: ["pulse"]))
        #expect(launches.apps.last?.log.first == "willRestoreState 1")
        phone.close()
        await device.close()
    }
}
