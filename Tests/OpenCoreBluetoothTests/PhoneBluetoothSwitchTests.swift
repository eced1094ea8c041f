import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// A peripheral app that publishes one service and advertises once, at its first
/// `poweredOn`, and logs each state it hears: what it does again after Bluetooth comes back
/// is up to the test.
final class OncePeripheralApp: NSObject, CBPeripheralManagerDelegate {
    static let service = CBUUID(string: "FFE0")
    static let value = CBUUID(string: "FFE1")
    var manager: CBPeripheralManager!
    var states: [CBManagerState] = []
    var added = 0

    init(controller: String) {
        super.init()
        manager = CBPeripheralManager(delegate: self, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: controller])
    }

    func publish() {
        let service = CBMutableService(type: Self.service, primary: true)
        service.characteristics = [CBMutableCharacteristic(type: Self.value, properties: [.read], value: Data([7]), permissions: [.readable])]
        manager.add(service)
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        states.append(peripheral.state)
        guard peripheral.state == .poweredOn, states.count == 1 else { return }
        publish()
        peripheral.startAdvertising([CBAdvertisementDataLocalNameKey: "Once"])
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {
        if error == nil { added += 1 }
    }
}

/// Bluetooth switched off and on in the simulated iPhone's Settings (Apple, `CBManagerState`:
/// below powered on, scanning has stopped and peripherals are disconnected; the peripheral
/// manager's services are gone and are added again by the app), on virtual time.
@Suite("Bluetooth switched off in the simulated iPhone's Settings", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneBluetoothSwitchTests {
    @Test("Switched off, a central hears poweredOff, its scan stops and its link ends without didDisconnect; on again, poweredOn and nothing restarts")
    func centralSwitchedOff() async throws {
        let device = try await neighbourhood("phone-switch-central")
        let phone = SimulatedPhone(device: device)
        let launches = Launches<HeartRateCentral>()
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothCentral)) { _ in
            launches.apps.append(HeartRateCentral(options: [OpenCoreBluetoothControllerOptionKey: "phone-switch-central"]))
        }
        try phone.perform(.launch("Pulse"))
        #expect(await eventually { (launches.apps.first?.measurements.count ?? 0) >= 2 })
        let app = try #require(launches.apps.first)
        let sensor = try #require(app.sensor)
        app.manager.scanForPeripherals(withServices: nil)
        #expect(app.manager.isScanning)

        try phone.perform(.bluetooth(on: false))
        #expect(!phone.isBluetoothOn)
        #expect(await eventually { app.log.last == "didUpdateState 4" })
        #expect(app.manager.state == .poweredOff)
        #expect(!app.manager.isScanning)
        #expect(sensor.state == .disconnected)
        // iOS 10 and later call no didDisconnectPeripheral when Bluetooth is switched off.
        #expect(!app.log.contains("didDisconnectPeripheral"))
        #expect(await eventually { device.connections.isEmpty })
        // None is even raised: the system has nothing to drop.
        #expect(!phone.timeline.contains { $0.description.contains("didDisconnectPeripheral") })
        let heard = app.measurements.count
        // Calls while off do nothing (Core Bluetooth logs API MISUSE).
        app.manager.scanForPeripherals(withServices: nil)
        #expect(!app.manager.isScanning)

        try phone.perform(.bluetooth(on: true))
        #expect(await eventually { app.log.last == "didUpdateState 5" })
        try await testClock.sleep(for: .seconds(5))
        #expect(sensor.state == .disconnected)
        #expect(!app.manager.isScanning)
        #expect(app.measurements.count == heard)
        #expect(device.connections.isEmpty)
        phone.close()
        await device.close()
    }

    @Test("Switched off, a peripheral manager hears poweredOff, stops advertising and loses its services and links; on again, the app adds them itself")
    func peripheralSwitchedOff() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let phone = SimulatedPhone(device: world.devices[0])
        let launches = Launches<OncePeripheralApp>()
        let controller = world.names[0]
        try phone.install(AppDescription(name: "Once")) { _ in launches.apps.append(OncePeripheralApp(controller: controller)) }
        try phone.perform(.launch("Once"))
        try await waitFor("advertising") { launches.apps.first?.manager.isAdvertising == true && launches.apps.first?.added == 1 }
        let app = try #require(launches.apps.first)
        let central = world.devices[1]
        let connection = try await central.central.connect(to: world.addresses[0], timeout: .seconds(devicesWorldPatience))
        #expect(try await connection.services([0xFFE0]).count == 1)

        try phone.perform(.bluetooth(on: false))
        try await waitFor("poweredOff") { app.states.last == .poweredOff }
        #expect(!app.manager.isAdvertising)
        _ = try? await connection.disconnected

        try phone.perform(.bluetooth(on: true))
        try await waitFor("poweredOn") { app.states.last == .poweredOn }
        #expect(app.states == [.poweredOn, .poweredOff, .poweredOn])
        #expect(!app.manager.isAdvertising)
        // Nothing came back by itself: advertised again, the phone has no service.
        app.manager.startAdvertising([CBAdvertisementDataLocalNameKey: "Once"])
        try await waitFor("advertising again") { app.manager.isAdvertising }
        let again = try await central.central.connect(to: world.addresses[0], timeout: .seconds(devicesWorldPatience))
        #expect(try await again.services([0xFFE0]).isEmpty)
        try await again.disconnect()
        // The app adds it again, and it is there once.
        app.publish()
        try await waitFor("added again") { app.added == 2 }
        try await waitFor("advertising after the link") { app.manager.isAdvertising }
        let third = try await central.central.connect(to: world.addresses[0], timeout: .seconds(devicesWorldPatience))
        #expect(try await third.services([0xFFE0]).count == 1)
        phone.close()
        await world.close()
    }

    @Test("A central manager made while Bluetooth is off shows the Turn On Bluetooth alert unless ShowPowerAlert is false; a peripheral manager only when asked")
    func powerAlert() async throws {
        let device = try await neighbourhood("phone-switch-alert")
        let phone = SimulatedPhone(device: device)
        let controller: [String: Any] = [OpenCoreBluetoothControllerOptionKey: "phone-switch-alert"]
        let centrals = Launches<HeartRateCentral>()
        let peripherals = Launches<OncePeripheralApp>()
        try phone.install(AppDescription(name: "Loud")) { _ in centrals.apps.append(HeartRateCentral(options: controller)) }
        try phone.install(AppDescription(name: "Quiet")) { _ in
            centrals.apps.append(HeartRateCentral(options: controller.merging([CBCentralManagerOptionShowPowerAlertKey: false]) { _, new in new }))
        }
        try phone.install(AppDescription(name: "Beacon")) { _ in peripherals.apps.append(OncePeripheralApp(controller: "phone-switch-alert")) }
        try phone.perform(.bluetooth(on: false))
        try phone.perform(.launch("Loud"))
        try phone.perform(.launch("Quiet"))
        try phone.perform(.launch("Beacon"))
        #expect(await eventually { centrals.apps.count == 2 && centrals.apps.allSatisfy { $0.log == ["didUpdateState 4"] } })
        #expect(await eventually { peripherals.apps.first?.states == [.poweredOff] })
        let alerts = phone.timeline.compactMap { entry -> String? in
            if case let .alert(app, message) = entry.output, message.hasPrefix("Turn On") { "\(app): \(message)" } else { nil }
        }
        #expect(alerts == ["Loud: Turn On Bluetooth to Allow “Loud” to Connect to Accessories"])
        try phone.perform(.bluetooth(on: true))
        #expect(await eventually { centrals.apps.allSatisfy { $0.log.prefix(2) == ["didUpdateState 4", "didUpdateState 5"] } })
        #expect(await eventually { peripherals.apps.first?.states == [.poweredOff, .poweredOn] })
        phone.close()
        await device.close()
    }
}
