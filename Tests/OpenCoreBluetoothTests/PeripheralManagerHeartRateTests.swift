import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// A heart-rate sensor written as an Apple sample would be: a service 180D with a notified
/// measurement (2A37) and a read-only body sensor location (2A38) served by the stack.
@MainActor
final class AppleStyleHeartRateSensor: NSObject, @MainActor CBPeripheralManagerDelegate {
    static let service = CBUUID(string: "180D")
    static let measurement = CBUUID(string: "2A37")
    static let location = CBUUID(string: "2A38")

    var manager: CBPeripheralManager!
    let measurementCharacteristic = CBMutableCharacteristic(
        type: AppleStyleHeartRateSensor.measurement, properties: [.notify], value: nil, permissions: [])
    var log: [String] = []
    var subscribers = 0
    var ready = 0
    /// The heart-rate service, once added.
    var heartRateService: CBMutableService?

    init(options: [String: Any]) {
        super.init()
        manager = CBPeripheralManager(delegate: self, queue: nil, options: options)
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        log.append("didUpdateState")
        guard peripheral.state == .poweredOn else { return }
        let service = CBMutableService(type: Self.service, primary: true)
        let location = CBMutableCharacteristic(type: Self.location, properties: [.read], value: Data([0x01]), permissions: [.readable])
        service.characteristics = [measurementCharacteristic, location]
        heartRateService = service
        peripheral.add(service)
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {
        log.append("didAdd")
        guard error == nil else { return }
        peripheral.startAdvertising([CBAdvertisementDataLocalNameKey: "HRM", CBAdvertisementDataServiceUUIDsKey: [Self.service]])
    }

    func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?) {
        log.append(error == nil ? "didStartAdvertising" : "advertising failed")
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didSubscribeTo characteristic: CBCharacteristic) {
        log.append("didSubscribeTo \(characteristic.uuid)")
        subscribers += 1
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didUnsubscribeFrom characteristic: CBCharacteristic) {
        log.append("didUnsubscribeFrom \(characteristic.uuid)")
        subscribers -= 1
    }

    func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {
        ready += 1
    }

    /// Sends one beat: flags 0 (8-bit value), then the rate.
    func beat(_ rate: UInt8) -> Bool {
        manager.updateValue(Data([0x00, rate]), for: measurementCharacteristic, onSubscribedCentrals: nil)
    }
}

/// A heart-rate monitor written as an Apple sample would be.
@MainActor
final class AppleStyleHeartRateMonitor: NSObject, @MainActor CBCentralManagerDelegate, @MainActor CBPeripheralDelegate {
    var central: CBCentralManager!
    var peripheral: CBPeripheral?
    var log: [String] = []
    var rates: [UInt8] = []
    var location: Data?

    init(options: [String: Any]) {
        super.init()
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        log.append("didUpdateState")
        guard central.state == .poweredOn else { return }
        central.scanForPeripherals(withServices: [AppleStyleHeartRateSensor.service], options: nil)
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard self.peripheral == nil else { return }
        log.append("didDiscover")
        self.peripheral = peripheral
        central.stopScan()
        central.connect(peripheral, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        log.append("didConnect")
        peripheral.delegate = self
        peripheral.discoverServices([AppleStyleHeartRateSensor.service])
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        log.append("didDiscoverServices")
        for service in peripheral.services ?? [] { peripheral.discoverCharacteristics(nil, for: service) }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        log.append("didDiscoverCharacteristicsFor")
        for characteristic in service.characteristics ?? [] {
            if characteristic.uuid == AppleStyleHeartRateSensor.measurement { peripheral.setNotifyValue(true, for: characteristic) }
            if characteristic.uuid == AppleStyleHeartRateSensor.location { peripheral.readValue(for: characteristic) }
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {
        log.append("didUpdateNotificationStateFor")
    }

    /// The services each `didModifyServices` invalidated, by UUID.
    var modifications: [[String]] = []

    func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService]) {
        modifications.append(invalidatedServices.map(\.uuid.uuidString))
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        guard let value = characteristic.value else { return }
        if characteristic.uuid == AppleStyleHeartRateSensor.location {
            location = value
        } else if value.count >= 2 {
            rates.append(value[value.startIndex + 1])
        }
    }
}

@Suite("CBPeripheralManager heart-rate sensor against a CBCentralManager monitor", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PeripheralManagerHeartRateTests {
    @Test("an Apple-style sensor and monitor in one world: delegate calls in Apple's order, every beat in order")
    func heartRate() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let sensor = AppleStyleHeartRateSensor(options: world.options(0))
        try await waitFor("advertising") { sensor.manager.isAdvertising }
        #expect(sensor.log == ["didUpdateState", "didAdd", "didStartAdvertising"])

        let monitor = AppleStyleHeartRateMonitor(options: world.options(1))
        try await waitFor("the subscription") { sensor.subscribers == 1 }
        try await waitFor("the location") { monitor.location != nil }
        #expect(monitor.location == Data([0x01]), "the read-only value is served by the stack")
        #expect(sensor.log == ["didUpdateState", "didAdd", "didStartAdvertising", "didSubscribeTo 2A37"])
        #expect(Array(monitor.log.prefix(5)) == ["didUpdateState", "didDiscover", "didConnect", "didDiscoverServices",
                                                  "didDiscoverCharacteristicsFor"])
        try await waitFor("notifying") { monitor.log.contains("didUpdateNotificationStateFor") }

        let beats = (0 ..< 100).map { UInt8(60 + $0) }
        var next = 0
        while next < beats.count {
            if sensor.beat(beats[next]) {
                next += 1
            } else {
                let before = sensor.ready
                try await waitFor("room") { sensor.ready > before }
            }
        }
        try await waitFor("every beat") { monitor.rates.count == beats.count }
        #expect(monitor.rates == beats)

        if let peripheral = monitor.peripheral { monitor.central.cancelPeripheralConnection(peripheral) }
        try await waitFor("the unsubscription") { sensor.subscribers == 0 }
        #expect(sensor.log.last == "didUnsubscribeFrom 2A37")
        #expect(sensor.measurementCharacteristic.subscribedCentrals == nil)
        await world.close()
    }

    @Test("services added and removed on the sensor reach the monitor as didModifyServices, with the invalidated services")
    func modifiedServices() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let sensor = AppleStyleHeartRateSensor(options: world.options(0))
        try await waitFor("advertising") { sensor.manager.isAdvertising }
        let monitor = AppleStyleHeartRateMonitor(options: world.options(1))
        try await waitFor("notifying") { monitor.log.contains("didUpdateNotificationStateFor") }
        let heartRate = try #require(monitor.peripheral?.services?.first { $0.uuid == AppleStyleHeartRateSensor.service })

        // A service added at the end invalidates nothing the monitor knew (Apple: an empty list).
        let battery = CBMutableService(type: CBUUID(string: "180F"), primary: true)
        battery.characteristics = [CBMutableCharacteristic(type: CBUUID(string: "2A19"), properties: [.read], value: Data([90]), permissions: [.readable])]
        sensor.manager.add(battery)
        try await waitFor("the first change") { monitor.modifications.count == 1 }
        #expect(monitor.modifications == [[]])
        #expect(monitor.peripheral?.services?.contains { $0 === heartRate } == true)

        // Removing the heart-rate service moves what follows: the monitor's 180D is invalid.
        sensor.manager.remove(try #require(sensor.heartRateService))
        try await waitFor("the second change") { monitor.modifications.count == 2 }
        #expect(monitor.modifications.last == ["180D"])
        #expect(monitor.peripheral?.services?.contains { $0 === heartRate } == false)
        #expect(heartRate.characteristics?.contains { $0.isNotifying } == false)
        await world.close()
    }
}
