import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// A central app that scans for the lamp's service with a restore identifier, as
/// Apple-platform code writes it, and logs its delegate calls.
final class RestoringScanner: NSObject, CBCentralManagerDelegate {
    /// The service it scans for: the lamp's of the scanning tests.
    static let lamp = CBUUID(string: "5E7C1A0D-3B2F-4C19-8E61-0A9D4F2B7C35")
    var manager: CBCentralManager!
    var log: [String] = []

    init(controller: String) {
        super.init()
        manager = CBCentralManager(delegate: self, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: controller,
                                                                         CBCentralManagerOptionRestoreIdentifierKey: "finder"])
    }

    func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {
        log.append("willRestoreState")
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        log.append("didUpdateState")
        guard central.state == .poweredOn, !central.isScanning else { return }
        central.scanForPeripherals(withServices: [Self.lamp])
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        log.append("didDiscover")
    }
}

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

    @Test("Rule 16: a restart ends the app and its link; nothing relaunches it until the first unlock, after which its preserved scan does")
    func restartWaitsForFirstUnlock() async throws {
        let world = try await DevicesWorld.make(devices: 3)
        let phone = SimulatedPhone(device: world.devices[0])
        let controller = world.names[0]
        let launches = Launches<RestoringScanner>()
        try phone.install(AppDescription(name: "Finder", modes: .bluetoothCentral, restoresState: true)) { options in
            launches.options.append(options)
            launches.apps.append(RestoringScanner(controller: controller))
        }
        try phone.perform(.launch("Finder"))
        try await waitFor("the scan") { launches.apps.first?.manager.isScanning == true }
        try phone.perform(.reboot)
        #expect(phone.state(of: "Finder") == .terminated(.reboot))
        #expect(throws: PhoneError.self) { try phone.perform(.launch("Finder")) }
        // A lamp found before the first unlock relaunches nothing.
        let uuid = try #require(BluetoothUUID(RestoringScanner.lamp.uuidString))
        let early = try await world.devices[1].peripheral.advertise(serviceUUIDs: [uuid], connectable: false, interval: .milliseconds(100))
        #expect(await eventually { phone.timeline.contains { entry in
            if case .dropped(app: "Finder", _, "the phone has not been unlocked since it restarted") = entry.output { true } else { false }
        } })
        try await testClock.sleep(for: .seconds(2))
        #expect(launches.apps.count == 1)
        try phone.perform(.unlock)
        // After it, another lamp does: the app is relaunched for its preserved scan.
        let late = try await world.devices[2].peripheral.advertise(serviceUUIDs: [uuid], connectable: false, interval: .milliseconds(100))
        #expect(await eventually { launches.apps.count == 2 && launches.apps[1].log.contains("didDiscover") })
        #expect(launches.options.last == PhoneLaunchOptions(bluetoothCentrals: ["finder"]))
        #expect(launches.apps.last?.log.first == "willRestoreState")
        try await early.stop()
        try await late.stop()
        phone.close()
        await world.close()
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
