import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// A central app that connects to the first peripheral advertising FFA0, keeping it or not.
@MainActor
final class ConnectingCentral: NSObject, @MainActor CBCentralManagerDelegate {
    let keeps: Bool
    var manager: CBCentralManager!
    var kept: CBPeripheral?
    var connected = 0
    var discovered = 0

    init(keeps: Bool, options: [String: Any]) {
        self.keeps = keeps
        super.init()
        manager = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: [CBUUID(string: "FFA0")]) }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        discovered += 1
        guard discovered == 1 else { return }
        central.stopScan()
        if keeps { kept = peripheral }
        central.connect(peripheral)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) { connected += 1 }
}

/// The pitfalls the programming notes name, on a simulated iPhone (docs/phone.md).
@Suite("Pitfalls of Core Bluetooth apps on a simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhonePitfallTests {
    @Test("A peripheral the app does not keep is released and its pending connection cancelled, with the misuse on the timeline; one it keeps connects", arguments: [false, true])
    func unretainedPeripheral(keeps: Bool) async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let server = CBPeripheralManager(delegate: nil, queue: nil, options: world.options(0))
        try await waitFor("powered on") { server.state == .poweredOn }
        server.startAdvertising([CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "FFA0")]])
        try await waitFor("advertising") { server.isAdvertising }

        let phone = SimulatedPhone(device: world.devices[1])
        var apps: [ConnectingCentral] = []
        try phone.install(AppDescription(name: "Finder")) { _ in apps.append(ConnectingCentral(keeps: keeps, options: world.options(1))) }
        try phone.perform(.launch("Finder"))
        try await waitFor("the discovery") { apps.first?.discovered == 1 }
        let app = try #require(apps.first)
        try await testClock.sleep(for: .seconds(5))
        let misuse = phone.timeline.contains { entry in
            if case let .dropped(app: "Finder", _, reason) = entry.output { reason.hasPrefix("API MISUSE: Cancelling connection for unused peripheral") } else { false }
        }
        if keeps {
            #expect(app.connected == 1)
            #expect(!misuse)
            #expect(world.devices[1].connections.count == 1)
        } else {
            #expect(app.connected == 0)
            #expect(misuse, "\(phone.timeline.map(\.description).joined(separator: "\n"))")
            #expect(world.devices[1].connections.isEmpty)
        }
        phone.close()
        await world.close()
    }

    @Test("With the screen-lock fault, a running scan discovers nothing after the screen goes off and on, until the app scans afresh; without it, it goes on", arguments: [true, false])
    func scanFreezesAfterScreenLock(fault: Bool) async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let server = CBPeripheralManager(delegate: nil, queue: nil, options: world.options(0))
        try await waitFor("powered on") { server.state == .poweredOn }
        server.startAdvertising([CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "FFA0")]])
        try await waitFor("advertising") { server.isAdvertising }

        var policy = PhonePolicy()
        policy.scanFreezesAfterScreenLock = fault
        let phone = SimulatedPhone(device: world.devices[1], policy: policy)
        var apps: [ScanningApp] = []
        try phone.install(AppDescription(name: "Radar", modes: .bluetoothCentral)) { _ in
            apps.append(ScanningApp(services: [CBUUID(string: "FFA0")], allowDuplicates: true, controller: world.names[1]))
        }
        try phone.perform(.launch("Radar"))
        try await waitFor("discoveries") { (apps.first?.discoveries.count ?? 0) >= 3 }
        let app = try #require(apps.first)
        try phone.perform(.screen(on: false))
        try phone.perform(.screen(on: true))
        try phone.perform(.foreground("Radar"))
        let before = app.discoveries.count
        try await testClock.sleep(for: .seconds(5))
        #expect(app.manager.isScanning, "the app still believes it scans")
        if fault {
            #expect(app.discoveries.count == before, "frozen")
            app.manager.scanForPeripherals(withServices: [CBUUID(string: "FFA0")], options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
            try await waitFor("discoveries after a fresh scan") { app.discoveries.count > before }
        } else {
            #expect(app.discoveries.count > before)
        }
        app.manager.stopScan()
        phone.close()
        await world.close()
    }

    @Test("With the ready-callback fault, an app waiting only for peripheralManagerIsReady stalls; one that also tries again on a timer sends everything", arguments: [false, true])
    func readyCallbackSkipped(polls: Bool) async throws {
        let world = try await DevicesWorld.make(devices: 2)
        var policy = PhonePolicy()
        policy.readyToUpdateSubscribersSkipRate = 1
        let phone = SimulatedPhone(device: world.devices[0], policy: policy)
        var recorders: [RecordingPeripheralDelegate] = []
        var managers: [CBPeripheralManager] = []
        try phone.install(AppDescription(name: "Streamer")) { _ in
            let recorder = RecordingPeripheralDelegate()
            recorders.append(recorder)
            managers.append(CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0)))
        }
        try phone.perform(.launch("Streamer"))
        try await waitFor("powered on") { managers.first?.state == .poweredOn }
        let manager = try #require(managers.first)
        let recorder = try #require(recorders.first)
        let service = CBMutableService(type: CBUUID(string: "FFC0"), primary: true)
        let stream = CBMutableCharacteristic(type: CBUUID(string: "FFC1"), properties: [.notify], value: nil, permissions: [])
        service.characteristics = [stream]
        manager.add(service)
        manager.startAdvertising([CBAdvertisementDataLocalNameKey: "Stream"])
        try await waitFor("advertising") { manager.isAdvertising }
        let connection = try await world.devices[1].central.connect(to: world.addresses[0], parameters: .fast,
                                                                     timeout: .seconds(devicesWorldPatience))
        let remoteService = try #require(try await connection.services([0xFFC0]).first)
        let remote = try #require(try await connection.characteristics(of: remoteService).first)
        let values = try await connection.notifications(for: remote)
        try await waitFor("the subscription") { stream.subscribedCentrals?.count == 1 }
        let count = 100
        let receiver = Task {
            var received = 0
            for await _ in values {
                received += 1
                if received == count { break }
            }
            return received
        }
        var next = 0
        var stalled = false
        while next < count {
            if manager.updateValue(Data([UInt8(next)]), for: stream, onSubscribedCentrals: nil) {
                next += 1
            } else if polls {
                try await testClock.sleep(for: .milliseconds(100))
            } else {
                // Waiting only for the ready call: it never comes.
                let ready = recorder.readyCalls
                try await testClock.sleep(for: .seconds(10))
                stalled = recorder.readyCalls == ready
                break
            }
        }
        let skipped = phone.timeline.contains { entry in
            if case let .dropped(app: "Streamer", event, _) = entry.output { event.detail == "isReadyToUpdateSubscribers" } else { false }
        }
        #expect(skipped)
        if polls {
            #expect(await receiver.value == count)
        } else {
            #expect(stalled && next < count, "\(next) sent")
            receiver.cancel()
        }
        try await connection.disconnect()
        phone.close()
        await world.close()
    }
}
