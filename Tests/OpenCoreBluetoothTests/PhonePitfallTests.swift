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
}
