import BLE
import Dispatch
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// A serial queue that knows itself: `isCurrent` tells whether code runs on it.
final class NamedQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<String>()
    let name: String

    init(_ name: String) {
        self.name = name
        queue = DispatchQueue(label: "swiftble.tests.\(name)")
        queue.setSpecific(key: key, value: name)
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == name }

    /// Reads `body` on the queue, where the delegate's state lives.
    func read<T>(_ body: () -> T) -> T { queue.sync(execute: body) }
}

/// A heart-rate sensor on its own queue, as an Apple app with a background queue writes it:
/// every delegate call and every call of the manager happen on that queue. It sends `beats`
/// once a central subscribes, pausing when `updateValue` says the queue is full.
final class QueuedHeartRateSensor: NSObject, CBPeripheralManagerDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is touched only on `home`, where its managers call it and the test reads it.
    let home: NamedQueue
    let beats: [UInt8]
    var manager: CBPeripheralManager!
    let measurement = CBMutableCharacteristic(type: CBUUID(string: "2A37"), properties: [.notify], value: nil, permissions: [])
    var log: [String] = []
    /// Delegate calls that came anywhere but `home`.
    var offQueueCalls: [String] = []
    var sent = 0

    init(home: NamedQueue, beats: [UInt8], options: [String: Any]) {
        self.home = home
        self.beats = beats
        super.init()
        manager = CBPeripheralManager(delegate: self, queue: home.queue, options: options)
    }

    private func record(_ event: String) {
        log.append(event)
        if !home.isCurrent, offQueueCalls.count < 5 { offQueueCalls.append(event) }
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        record("didUpdateState")
        guard peripheral.state == .poweredOn else { return }
        let service = CBMutableService(type: CBUUID(string: "180D"), primary: true)
        service.characteristics = [measurement]
        peripheral.add(service)
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {
        record("didAdd")
        peripheral.startAdvertising([CBAdvertisementDataLocalNameKey: "QHRM", CBAdvertisementDataServiceUUIDsKey: [service.uuid]])
    }

    func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?) {
        record(error == nil ? "didStartAdvertising" : "advertising failed")
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didSubscribeTo characteristic: CBCharacteristic) {
        record("didSubscribeTo")
        pump()
    }

    func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {
        if !home.isCurrent, offQueueCalls.count < 5 { offQueueCalls.append("isReady") }
        pump()
    }

    /// Sends beats until the manager's queue is full or all are sent.
    private func pump() {
        while sent < beats.count, manager.updateValue(Data([0x00, beats[sent]]), for: measurement, onSubscribedCentrals: nil) {
            sent += 1
        }
    }
}

/// A heart-rate monitor on its own queue: scan, connect, discover, subscribe, collect rates.
final class QueuedHeartRateMonitor: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is touched only on `home`, where its managers call it and the test reads it.
    let home: NamedQueue
    var central: CBCentralManager!
    var peripheral: CBPeripheral?
    var log: [String] = []
    var offQueueCalls: [String] = []
    var rates: [UInt8] = []

    init(home: NamedQueue, options: [String: Any]) {
        self.home = home
        super.init()
        central = CBCentralManager(delegate: self, queue: home.queue, options: options)
    }

    private func record(_ event: String) {
        if log.last != event { log.append(event) }
        if !home.isCurrent, offQueueCalls.count < 5 { offQueueCalls.append(event) }
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        record("didUpdateState")
        if central.state == .poweredOn { central.scanForPeripherals(withServices: [CBUUID(string: "180D")]) }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard self.peripheral == nil else { return }
        record("didDiscover")
        self.peripheral = peripheral
        central.stopScan()
        central.connect(peripheral)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        record("didConnect")
        peripheral.delegate = self
        peripheral.discoverServices([CBUUID(string: "180D")])
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        record("didDiscoverServices")
        for service in peripheral.services ?? [] { peripheral.discoverCharacteristics(nil, for: service) }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        record("didDiscoverCharacteristicsFor")
        for characteristic in service.characteristics ?? [] where characteristic.properties.contains(.notify) {
            peripheral.setNotifyValue(true, for: characteristic)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {
        record("didUpdateNotificationStateFor")
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        record("didUpdateValueFor")
        if let value = characteristic.value, value.count >= 2 { rates.append(value[value.startIndex + 1]) }
    }
}

@Suite("Delegate calls on the queue a manager was given", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct DelegateQueueTests {
    @Test("a sensor and a monitor, each on its own queue: every delegate call on that queue, 300 beats in order")
    func ownQueues() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let sensorQueue = NamedQueue("sensor")
        let monitorQueue = NamedQueue("monitor")
        let beats = (0 ..< 300).map { UInt8(truncatingIfNeeded: 40 + $0) }
        let sensor = QueuedHeartRateSensor(home: sensorQueue, beats: beats, options: world.options(0))
        try await waitFor("advertising") { sensorQueue.read { sensor.manager.isAdvertising } }
        let monitor = QueuedHeartRateMonitor(home: monitorQueue, options: world.options(1))
        try await waitFor("every beat") { monitorQueue.read { monitor.rates.count } == beats.count }

        #expect(monitorQueue.read { monitor.rates } == beats)
        #expect(sensorQueue.read { sensor.log } == ["didUpdateState", "didAdd", "didStartAdvertising", "didSubscribeTo"])
        #expect(monitorQueue.read { monitor.log } == ["didUpdateState", "didDiscover", "didConnect", "didDiscoverServices",
                                                      "didDiscoverCharacteristicsFor", "didUpdateNotificationStateFor", "didUpdateValueFor"])
        #expect(sensorQueue.read { sensor.offQueueCalls }.isEmpty)
        #expect(monitorQueue.read { monitor.offQueueCalls }.isEmpty)
        monitorQueue.read { if let peripheral = monitor.peripheral { monitor.central.cancelPeripheralConnection(peripheral) } }
        await world.close()
    }

    @Test("a nil queue is the main queue: main-actor code may be the delegate")
    func mainQueue() async throws {
        _ = mainQueueKey
        let world = try await DevicesWorld.make(devices: 1)
        let recorder = MainQueueStateRecorder()
        let manager = CBCentralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { recorder.states.contains(.poweredOn) }
        #expect(recorder.onMainQueue)
        _ = manager
        await world.close()
    }
}

/// A main-actor delegate: its isolated conformance traps if a call comes off the main actor.
@MainActor
final class MainQueueStateRecorder: NSObject, @MainActor CBCentralManagerDelegate {
    var states: [CBManagerState] = []
    var onMainQueue = true

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        states.append(central.state)
        if DispatchQueue.getSpecific(key: mainQueueKey) != "main" { onMainQueue = false }
    }
}

/// Marks the main queue, so a test can tell it from another queue.
let mainQueueKey: DispatchSpecificKey<String> = {
    let key = DispatchSpecificKey<String>()
    DispatchQueue.main.setSpecific(key: key, value: "main")
    return key
}()
