import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// A central app that finds the first peripheral advertising `service`, connects, and
/// keeps that service's first characteristic.
@MainActor
final class FirstCharacteristicCentral: NSObject, @MainActor CBCentralManagerDelegate, @MainActor CBPeripheralDelegate {
    let service: CBUUID
    var manager: CBCentralManager!
    var peripheral: CBPeripheral?
    var characteristic: CBCharacteristic?

    init(service: CBUUID, options: [String: Any]) {
        self.service = service
        super.init()
        manager = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: [service]) }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard self.peripheral == nil else { return }
        self.peripheral = peripheral
        central.stopScan()
        peripheral.delegate = self
        central.connect(peripheral)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.discoverServices([service])
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        guard let found = peripheral.services?.first else { return }
        peripheral.discoverCharacteristics(nil, for: found)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        characteristic = service.characteristics?.first
    }
}

/// The host habits of a phone's profile on the air (``PhoneProfile``): an iOS 7-era phone
/// cuts a write without response to the 20 octets ATT_MTU 23 carries, where today's sends
/// none of a write too long for one Write Command, and asks for no longer data PDUs.
@Suite("Phone profiles on the air", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhoneProfileWriteTests {
    @Test("A 40-octet write without response: the iOS 7 phone sends its first 20 octets; today's phone sends nothing", arguments: ["iOS7", "today"])
    func longWriteWithoutResponse(profileName: String) async throws {
        let profile = try #require(PhoneProfile.all.first { $0.name == profileName })
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        let server = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { server.state == .poweredOn }
        let service = CBMutableService(type: CBUUID(string: "FFB0"), primary: true)
        service.characteristics = [CBMutableCharacteristic(type: CBUUID(string: "FFB1"), properties: [.writeWithoutResponse], value: nil,
                                                           permissions: [.writeable])]
        server.add(service)
        server.startAdvertising([CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "FFB0")]])
        try await waitFor("advertising") { server.isAdvertising }

        let phone = SimulatedPhone(device: world.devices[1], profile: profile)
        var apps: [FirstCharacteristicCentral] = []
        try phone.install(AppDescription(name: "Writer")) { _ in
            apps.append(FirstCharacteristicCentral(service: CBUUID(string: "FFB0"), options: world.options(1)))
        }
        try phone.perform(.launch("Writer"))
        try await waitFor("the characteristic") { apps.first?.characteristic != nil }
        let app = try #require(apps.first)
        let peripheral = try #require(app.peripheral)
        let characteristic = try #require(app.characteristic)
        #expect(peripheral.maximumWriteValueLength(for: .withoutResponse) == 20)
        // Today's phone asks for 251-octet PDUs on each new link; the iOS 7 one never does.
        if profile.host.dataLength == nil {
            try await testClock.sleep(for: .seconds(1))
            #expect(world.devices[1].connections.first?.dataLength == nil)
        } else {
            try await waitFor("the data length update") { world.devices[1].connections.first?.dataLength?.tx == 251 }
        }
        let value = Data((1 ... 40).map { UInt8($0) })
        peripheral.writeValue(value, for: characteristic, type: .withoutResponse)
        peripheral.writeValue(Data([0xAA]), for: characteristic, type: .withoutResponse)
        try await waitFor("the short write") { recorder.writes.flatMap { $0 }.contains { $0.value == Data([0xAA]) } }
        let received = recorder.writes.flatMap { $0 }.compactMap(\.value)
        if profile.host.cutsLongWritesWithoutResponse {
            #expect(received == [value.prefix(20), Data([0xAA])])
        } else {
            #expect(received == [Data([0xAA])])
        }
        phone.close()
        await world.close()
    }
}
