import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// An app that publishes a counter (read from the app on each request, and notifying) and
/// advertises it, with a restore identifier, as Apple-platform code written for state
/// restoration does: a manager made again after a relaunch takes the restored services and
/// publishes nothing twice.
final class RestoringCounterApp: NSObject, CBPeripheralManagerDelegate {
    static let counter = CBUUID(string: "FFD1")
    let serviceUUID: CBUUID
    let advertises: Bool
    var manager: CBPeripheralManager!
    var log: [String] = []
    var restored: [String: Any]?
    var services: [CBMutableService] = []
    var reads = 0

    init(controller: String, service: CBUUID = CBUUID(string: "FFD0"), advertises: Bool = true) {
        serviceUUID = service
        self.advertises = advertises
        super.init()
        manager = CBPeripheralManager(delegate: self, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: controller,
                                                                            CBPeripheralManagerOptionRestoreIdentifierKey: "counter"])
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, willRestoreState dict: [String: Any]) {
        log.append("willRestoreState")
        restored = dict
        services = dict[CBPeripheralManagerRestoredStateServicesKey] as? [CBMutableService] ?? []
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        log.append("didUpdateState \(peripheral.state.rawValue)")
        guard peripheral.state == .poweredOn, restored == nil else { return }
        let service = CBMutableService(type: serviceUUID, primary: true)
        service.characteristics = [CBMutableCharacteristic(type: Self.counter, properties: [.read, .notify], value: nil, permissions: [.readable])]
        services = [service]
        peripheral.add(service)
        if advertises {
            peripheral.startAdvertising([CBAdvertisementDataLocalNameKey: "Counter", CBAdvertisementDataServiceUUIDsKey: [serviceUUID]])
        }
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest) {
        log.append("didReceiveRead")
        reads += 1
        request.value = Data([UInt8(reads)])
        peripheral.respond(to: request, withResult: .success)
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didSubscribeTo characteristic: CBCharacteristic) {
        log.append("didSubscribeTo")
    }

    /// The counter characteristic of the app's (published or restored) service.
    var counterCharacteristic: CBMutableCharacteristic? {
        services.first?.characteristics?.first as? CBMutableCharacteristic
    }
}

/// Peripheral-manager state preservation and restoration on the simulated iPhone (iOS
/// research §5, §9 rules 13–16), on virtual time.
@Suite("Core Bluetooth peripheral-manager restoration on the simulated iPhone", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PhonePeripheralRestorationTests {
    /// A phone running the restoring counter app, and a central connected to it that has
    /// found the counter characteristic and read it once.
    private func counterOnPhone(modes: BackgroundModes = .bluetoothPeripheral, second: Bool = false) async throws
        -> (DevicesWorld, SimulatedPhone, Launches<RestoringCounterApp>, Connection, RemoteCharacteristic) {
        let world = try await DevicesWorld.make(devices: 2)
        let phone = SimulatedPhone(device: world.devices[0])
        let launches = Launches<RestoringCounterApp>()
        let controller = world.names[0]
        try phone.install(AppDescription(name: "Counter", modes: modes, restoresState: true)) { options in
            launches.options.append(options)
            launches.apps.append(RestoringCounterApp(controller: controller))
            // A second manager with the first one's restore identifier, publishing another service.
            if second { launches.apps.append(RestoringCounterApp(controller: controller, service: CBUUID(string: "FFE0"), advertises: false)) }
        }
        try phone.perform(.launch("Counter"))
        try await waitFor("advertising") { launches.apps.first?.manager.isAdvertising == true }
        if second { try await waitFor("the second service") { launches.apps.last?.log.count == 1 } }
        let connection = try await world.devices[1].central.connect(to: world.addresses[0], timeout: .seconds(devicesWorldPatience))
        let service = try #require(try await connection.services([0xFFD0]).first)
        let counter = try #require(try await connection.characteristics(of: service).first)
        #expect(try await connection.read(counter) == [1])
        return (world, phone, launches, connection, counter)
    }

    /// The first advertisement of `address` that `scanner` hears within `seconds` of the
    /// test's clock, or `nil`.
    private func heard(on scanner: BLEDevice, from address: BluetoothAddress, within seconds: Int) async throws -> Advertisement? {
        let scan = try await scanner.central.scan(options: ScanOptions(allowDuplicates: true))
        return await withTaskGroup(of: Advertisement?.self) { group in
            group.addTask {
                for await advertisement in scan where advertisement.address.value == address.value { return advertisement }
                return nil
            }
            group.addTask {
                try? await testClock.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test("Rules 13–15: terminated by the system, the app's services and background advertising go on; a read relaunches it, restored before it answers")
    func restorationByRead() async throws {
        let (world, phone, launches, connection, counter) = try await counterOnPhone()
        let first = try #require(launches.apps.first)
        try phone.perform(.background("Counter"))
        try phone.perform(.terminate("Counter", .system))

        // The system advertises for the terminated app, in the background form (rule 12).
        let advertisement = try #require(try await heard(on: world.devices[1], from: world.addresses[0], within: 5))
        #expect(advertisement.localName == nil)
        #expect(advertisement.manufacturerData?.companyIdentifier == 0x004C)
        #expect(launches.apps.count == 1)

        // A central's read relaunches the app; the new manager answers it after its restored state.
        #expect(try await connection.read(counter) == [1])
        #expect(launches.apps.count == 2)
        let second = try #require(launches.apps.last)
        #expect(launches.options == [PhoneLaunchOptions(), PhoneLaunchOptions(bluetoothPeripherals: ["counter"])])
        #expect(second.log == ["willRestoreState", "didUpdateState 5", "didReceiveRead"])
        let services = try #require(second.restored?[CBPeripheralManagerRestoredStateServicesKey] as? [CBMutableService])
        #expect(services.count == 1 && services.first === first.services.first, "the published service objects themselves")
        let advertised = try #require(second.restored?[CBPeripheralManagerRestoredStateAdvertisementDataKey] as? [String: Any])
        #expect(advertised[CBAdvertisementDataLocalNameKey] as? String == "Counter")
        #expect(advertised[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] == [CBUUID(string: "FFD0")])
        #expect(second.manager.isAdvertising)
        #expect(first.reads == 1, "the terminated app's objects hear nothing more")
        #expect(phone.state(of: "Counter") == .background)
        phone.close()
        await world.close()
    }

    @Test("Rules 13–14: after a crash, a subscription relaunches the app, which hears it after its restored state and can notify the central")
    func restorationBySubscription() async throws {
        let (world, phone, launches, connection, counter) = try await counterOnPhone()
        try phone.perform(.terminate("Counter", .crash))
        let values = try await connection.notifications(for: counter)
        try await waitFor("the relaunch") { launches.apps.count == 2 && launches.apps[1].log.count == 3 }
        let second = launches.apps[1]
        #expect(second.log == ["willRestoreState", "didUpdateState 5", "didSubscribeTo"])
        let characteristic = try #require(second.counterCharacteristic)
        #expect(characteristic.subscribedCentrals?.count == 1)
        #expect(second.manager.updateValue(Data([42]), for: characteristic, onSubscribedCentrals: nil))
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == [42])
        phone.close()
        await world.close()
    }

    @Test("Rule 16: after a force-quit the peripheral manager's advertising and services end, and no request relaunches the app")
    func forceQuitEndsPeripheralWork() async throws {
        let (world, phone, launches, connection, counter) = try await counterOnPhone()
        let first = try #require(launches.apps.first)
        try phone.perform(.terminate("Counter", .forceQuit))
        try await waitFor("advertising to stop") { !first.manager.isAdvertising }
        try await testClock.sleep(for: .seconds(1))
        #expect(try await heard(on: world.devices[1], from: world.addresses[0], within: 5) == nil)
        await #expect(throws: BLEError.self) { try await connection.read(counter) }
        #expect(launches.apps.count == 1)
        #expect(!phone.timeline.contains { if case .relaunched = $0.output { true } else { false } })
        phone.close()
        await world.close()
    }

    @Test("A second peripheral manager with a running one's restore identifier is not preserved: its services end with the app")
    func duplicateIdentifierNotPreserved() async throws {
        let (world, phone, launches, connection, counter) = try await counterOnPhone(second: true)
        _ = counter
        #expect(try await connection.services([0xFFE0]).count == 1)
        try await connection.disconnect()
        try phone.perform(.terminate("Counter", .system))
        let other = try await world.devices[1].central.connect(to: world.addresses[0], timeout: .seconds(devicesWorldPatience))
        try await testClock.sleep(for: .seconds(1))
        #expect(try await other.services([0xFFE0]).isEmpty)
        #expect(try await other.services([0xFFD0]).count == 1)
        #expect(launches.apps.count == 2, "discovery alone relaunches nothing")
        phone.close()
        await world.close()
    }
}
