import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// An app that advertises a name and two 128-bit services once its peripheral manager is
/// on, as Apple-platform code writes it.
final class AdvertisingApp: NSObject, CBPeripheralManagerDelegate {
    static let first = CBUUID(string: "9F37E282-60B6-42B1-A02F-7341DA5E2EBA")
    static let second = CBUUID(string: "890AA912-C414-440D-88A2-C7F66179589B")
    var manager: CBPeripheralManager!

    init(controller: String) {
        super.init()
        manager = CBPeripheralManager(delegate: self, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: controller])
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        guard peripheral.state == .poweredOn else { return }
        peripheral.startAdvertising([CBAdvertisementDataLocalNameKey: "Pulse",
                                     CBAdvertisementDataServiceUUIDsKey: [Self.first, Self.second]])
    }
}

/// Apple-style peripheral managers as apps of a simulated iPhone: the background
/// advertising rule of the iOS research's §9, on virtual time.
@Suite("Core Bluetooth peripheral managers on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhonePeripheralTests {
    /// The first advertisement of `address` that `scanner` hears and `matches` accepts.
    private func heard(on scanner: BLEDevice, from address: BluetoothAddress,
                       _ matches: (Advertisement) -> Bool) async throws -> Advertisement {
        let scan = try await scanner.central.scan(options: ScanOptions(allowDuplicates: true))
        for await advertisement in scan where advertisement.address.value == address.value && matches(advertisement) {
            return advertisement
        }
        throw DevicesWorldTimeout(what: "an advertisement")
    }

    @Test("Rule 12: off screen the advertisement loses the name and carries every service UUID in the overflow area only; on screen again it is whole")
    func backgroundAdvertising() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let phone = SimulatedPhone(device: world.devices[0])
        let launches = Launches<AdvertisingApp>()
        let controller = world.names[0]
        try phone.install(AppDescription(name: "Pulse", modes: .bluetoothPeripheral)) { _ in
            launches.apps.append(AdvertisingApp(controller: controller))
        }
        try phone.perform(.launch("Pulse"))
        let first = try #require(BluetoothUUID(AdvertisingApp.first.uuidString))
        let second = try #require(BluetoothUUID(AdvertisingApp.second.uuidString))
        let scanner = world.devices[1]
        let phoneAddress = world.addresses[0]

        let onScreen = try await heard(on: scanner, from: phoneAddress) { $0.localName != nil }
        #expect(onScreen.localName == "Pulse")
        #expect(onScreen.serviceUUIDs == [first])

        try phone.perform(.background("Pulse"))
        let offScreen = try await heard(on: scanner, from: phoneAddress) { $0.localName == nil }
        #expect(offScreen.serviceUUIDs.isEmpty)
        #expect(offScreen.scanResponseBytes.isEmpty)
        #expect(offScreen.overflowServiceUUIDs(among: [first, second]) == [first, second])
        #expect(offScreen.manufacturerData?.companyIdentifier == 0x004C)
        #expect(launches.apps.first?.manager.isAdvertising == true)

        // Suspended, the same advertisement goes on.
        #expect(await eventually { phone.state(of: "Pulse") == .suspended })
        let suspended = try await heard(on: scanner, from: phoneAddress) { _ in true }
        #expect(suspended.localName == nil)

        try phone.perform(.foreground("Pulse"))
        let back = try await heard(on: scanner, from: phoneAddress) { $0.localName != nil }
        #expect(back.localName == "Pulse")
        phone.close()
        await world.close()
    }
}
