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

/// An app that publishes one characteristic with a dynamic value (read from the app on
/// each request) and answers reads with a counter, as Apple-platform code writes it.
final class CounterApp: NSObject, CBPeripheralManagerDelegate {
    static let service = CBUUID(string: "FFD0")
    static let counter = CBUUID(string: "FFD1")
    var manager: CBPeripheralManager!
    var reads = 0

    init(controller: String) {
        super.init()
        manager = CBPeripheralManager(delegate: self, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: controller])
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        guard peripheral.state == .poweredOn else { return }
        let service = CBMutableService(type: Self.service, primary: true)
        service.characteristics = [CBMutableCharacteristic(type: Self.counter, properties: [.read], value: nil, permissions: [.readable])]
        peripheral.add(service)
        peripheral.startAdvertising([CBAdvertisementDataLocalNameKey: "Counter"])
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest) {
        reads += 1
        request.value = Data([UInt8(reads)])
        peripheral.respond(to: request, withResult: .success)
    }
}

extension PhonePeripheralTests {
    /// A phone running the counter app with `modes`, and a central connected to it that has
    /// found the counter characteristic.
    private func counterOnPhone(modes: BackgroundModes) async throws
        -> (DevicesWorld, SimulatedPhone, Launches<CounterApp>, Connection, RemoteCharacteristic) {
        let world = try await DevicesWorld.make(devices: 2)
        let phone = SimulatedPhone(device: world.devices[0])
        let launches = Launches<CounterApp>()
        let controller = world.names[0]
        try phone.install(AppDescription(name: "Counter", modes: modes)) { _ in
            launches.apps.append(CounterApp(controller: controller))
        }
        try phone.perform(.launch("Counter"))
        try await waitFor("advertising") { launches.apps.first?.manager.isAdvertising == true }
        let connection = try await world.devices[1].central.connect(to: world.addresses[0], timeout: .seconds(devicesWorldPatience))
        let service = try #require(try await connection.services([0xFFD0]).first)
        let counter = try #require(try await connection.characteristics(of: service).first)
        return (world, phone, launches, connection, counter)
    }

    @Test("Rule 4: a suspended app without bluetooth-peripheral cannot answer a read of a dynamic value: Unlikely Error")
    func dynamicReadWhileSuspended() async throws {
        let (world, phone, launches, connection, counter) = try await counterOnPhone(modes: [])
        #expect(try await connection.read(counter) == [1])
        try phone.perform(.background("Counter"))
        try await waitFor("suspension") { phone.state(of: "Counter") == .suspended }
        await #expect(throws: BLEError.att(.unlikelyError, handle: counter.valueHandle)) { try await connection.read(counter) }
        #expect(launches.apps.first?.reads == 1)
        try phone.perform(.foreground("Counter"))
        #expect(try await connection.read(counter) == [2])
        phone.close()
        await world.close()
    }

    @Test("Rule 2: a suspended app with bluetooth-peripheral is woken to answer a read, then suspended after its wake window")
    func dynamicReadWakes() async throws {
        let (world, phone, launches, connection, counter) = try await counterOnPhone(modes: .bluetoothPeripheral)
        try phone.perform(.background("Counter"))
        try await waitFor("suspension") { phone.state(of: "Counter") == .suspended }
        #expect(try await connection.read(counter) == [1])
        #expect(phone.state(of: "Counter") == .background)
        try await waitFor("suspension after the wake window") { phone.state(of: "Counter") == .suspended }
        #expect(launches.apps.first?.reads == 1)
        phone.close()
        await world.close()
    }
}

extension PhonePeripheralTests {
    /// How many advertisements of `address` `scanner` hears in `seconds` of the test's clock.
    private func advertisementsHeard(on scanner: BLEDevice, from address: BluetoothAddress, in seconds: Double) async throws -> Int {
        let scan = try await scanner.central.scan(options: ScanOptions(allowDuplicates: true))
        let counting = Task {
            var count = 0
            for await advertisement in scan where advertisement.address.value == address.value { count += 1 }
            return count
        }
        try await testClock.sleep(for: .seconds(seconds))
        counting.cancel()
        await scan.stop()
        return await counting.value
    }

    @Test("Without bluetooth-peripheral, advertising stops when the app leaves the screen and resumes when it returns; its link stays, and dynamic reads fail while it is suspended")
    func advertisingStopsWithoutMode() async throws {
        let (world, phone, launches, connection, counter) = try await counterOnPhone(modes: [])
        let scanner = world.devices[1]
        let phoneAddress = world.addresses[0]
        #expect(try await advertisementsHeard(on: scanner, from: phoneAddress, in: 2) > 0)

        try phone.perform(.background("Counter"))
        try await waitFor("suspension") { phone.state(of: "Counter") == .suspended }
        #expect(try await advertisementsHeard(on: scanner, from: phoneAddress, in: 3) == 0)
        // The app still believes it advertises, as on iOS; the system holds it back.
        #expect(launches.apps.first?.manager.isAdvertising == true)
        #expect(connection.isConnected)
        await #expect(throws: BLEError.att(.unlikelyError, handle: counter.valueHandle)) { try await connection.read(counter) }

        try phone.perform(.foreground("Counter"))
        #expect(try await advertisementsHeard(on: scanner, from: phoneAddress, in: 2) > 0)
        #expect(try await connection.read(counter) == [1])
        phone.close()
        await world.close()
    }
}
