import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// Control Center's Bluetooth button and Airplane Mode on the simulated iPhone, as a Core
/// Bluetooth app sees them (Radius Networks, "Bluetooth Beacons in iOS 11", 2018: managers
/// report powered off; Apple, "Use Airplane Mode on your iPhone"), on virtual time.
@Suite("Control Center's Bluetooth button and Airplane Mode", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneControlCenterTests {
    /// The heart-rate app running on a phone, connected and measuring.
    private func measuring(_ controller: String) async throws -> (BLEDevice, SimulatedPhone, HeartRateCentral) {
        let device = try await neighbourhood(controller)
        let phone = SimulatedPhone(device: device)
        let launches = Launches<HeartRateCentral>()
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothCentral)) { _ in
            launches.apps.append(HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: controller]))
        }
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        return (device, phone, try #require(launches.apps.first))
    }

    @Test("Control Center off: the central hears poweredOff and its link ends while Settings still says on; on again, poweredOn")
    func controlCenterButton() async throws {
        let (device, phone, app) = try await measuring("phone-control-center")
        try phone.perform(.controlCenterBluetooth(on: false))
        #expect(phone.isBluetoothOn && !phone.isBluetoothAvailable)
        #expect(await eventually { app.log.last == "didUpdateState 4" })
        #expect(await eventually { device.connections.isEmpty })
        try phone.perform(.controlCenterBluetooth(on: true))
        #expect(await eventually { app.log.last == "didUpdateState 5" })
        phone.close()
        await device.close()
    }

    @Test("Off at 04:59:40 on the phone's clock, the button comes on by itself at 05:00: the central hears poweredOn and the timeline says why")
    func onAgainAtFiveAM() async throws {
        let world = try await DevicesWorld.make(devices: 1)
        var policy = PhonePolicy()
        policy.timeOfDayAtStart = 5 * 3_600_000_000 - 30_000_000  // 04:59:30 at time 0
        let phone = SimulatedPhone(device: world.devices[0], policy: policy)
        let log = ScanLog()
        var manager: CBCentralManager?
        try phone.install(AppDescription(name: "Log", modes: .bluetoothCentral)) { _ in
            manager = CBCentralManager(delegate: log, queue: nil, options: world.options(0))
        }
        try phone.perform(.launch("Log"))
        #expect(await eventually { log.states == [.poweredOn] })
        try await testClock.sleep(untilMicroseconds: 10_000_000)
        try phone.perform(.controlCenterBluetooth(on: false))
        #expect(await eventually { log.states == [.poweredOn, .poweredOff] })
        #expect(await eventually { log.states == [.poweredOn, .poweredOff, .poweredOn] })
        #expect(phone.isBluetoothAvailable && manager?.state == .poweredOn)
        // The phone's own record of when it happened, not when this test's task looked.
        let states = phone.timeline.compactMap { entry -> Int64? in
            guard case let .deliver("Log", events) = entry.output, events.contains(where: { $0.detail.hasPrefix("didUpdateState") }) else { return nil }
            return entry.time
        }
        #expect(states.count == 3 && states[1] < 30_000_000 && states.last == 30_000_000, "\(phone.timeline.map(\.description))")
        #expect(phone.timeline.contains { $0.time == 30_000_000 && $0.output == .system("Control Center's Bluetooth button on again: 5 AM local time") })
        phone.close()
        await world.close()
    }

    @Test("Airplane Mode: the central hears poweredOff and the cellular link goes down; off again, both come back")
    func airplaneMode() async throws {
        let (device, phone, app) = try await measuring("phone-airplane")
        try phone.perform(.airplaneMode(on: true))
        #expect(phone.isAirplaneModeOn && !phone.isBluetoothOn && !phone.isNetworkOn)
        #expect(await eventually { app.log.last == "didUpdateState 4" })
        #expect(await eventually { device.connections.isEmpty })
        try phone.perform(.airplaneMode(on: false))
        #expect(phone.isBluetoothOn && phone.isNetworkOn)
        #expect(await eventually { app.log.last == "didUpdateState 5" })
        phone.close()
        await device.close()
    }
}
