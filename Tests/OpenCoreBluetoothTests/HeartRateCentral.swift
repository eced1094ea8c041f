import Foundation
#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif

/// A heart-rate central as an Apple-platform app writes it: scan for 180D, connect,
/// discover, subscribe to the measurement (2A37), read the body sensor location (2A38).
/// It logs every delegate call, so a test can check Apple's documented order.
final class HeartRateCentral: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    static let heartRateService = CBUUID(string: "180D")
    static let measurement = CBUUID(string: "2A37")
    static let bodySensorLocation = CBUUID(string: "2A38")

    var manager: CBCentralManager!
    var sensor: CBPeripheral?
    var log: [String] = []
    var measurements: [Data] = []
    var location: Data?
    var disconnectError: (any Error)?
    var disconnected = false
    /// Discover every service rather than 180D only (`discoverServices(nil)`).
    var discoverAllServices = false

    /// The options of `connect(_:options:)`.
    let connectOptions: [String: Any]?

    init(options: [String: Any], connectOptions: [String: Any]? = nil) {
        self.connectOptions = connectOptions
        super.init()
        manager = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        log.append("didUpdateState \(central.state.rawValue)")
        // A sensor restored after a relaunch is connected and subscribed already.
        if central.state == .poweredOn, sensor == nil {
            central.scanForPeripherals(withServices: [HeartRateCentral.heartRateService], options: nil)
        }
    }

    /// The system relaunched the app: it takes back the sensor it was connected to.
    func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {
        let peripherals = dict[CBCentralManagerRestoredStatePeripheralsKey] as? [CBPeripheral] ?? []
        log.append("willRestoreState \(peripherals.count)")
        sensor = peripherals.first
        sensor?.delegate = self
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard sensor == nil else { return }
        log.append("didDiscover")
        sensor = peripheral
        central.stopScan()
        central.connect(peripheral, options: connectOptions)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        log.append("didConnect")
        peripheral.delegate = self
        peripheral.discoverServices(discoverAllServices ? nil : [HeartRateCentral.heartRateService])
    }

    func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
        log.append("didFailToConnect")
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?) {
        log.append("didDisconnectPeripheral")
        if let error { print("HeartRateCentral: didDisconnectPeripheral \(error); log \(log)") }
        disconnectError = error
        disconnected = true
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        log.append("didDiscoverServices" + (error.map { " error \($0)" } ?? ""))
        if error == nil, peripheral.services?.contains(where: { $0.uuid == HeartRateCentral.heartRateService }) != true {
            log.append("services: \((peripheral.services ?? []).map(\.uuid.uuidString))")
        }
        for service in peripheral.services ?? [] where service.uuid == HeartRateCentral.heartRateService {
            peripheral.discoverCharacteristics([HeartRateCentral.measurement, HeartRateCentral.bodySensorLocation], for: service)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        log.append("didDiscoverCharacteristicsFor \(service.uuid.uuidString)")
        for characteristic in service.characteristics ?? [] {
            if characteristic.uuid == HeartRateCentral.measurement { peripheral.setNotifyValue(true, for: characteristic) }
            if characteristic.uuid == HeartRateCentral.bodySensorLocation { peripheral.readValue(for: characteristic) }
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {
        log.append("didUpdateNotificationStateFor \(characteristic.uuid.uuidString) \(characteristic.isNotifying)")
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        guard error == nil, let value = characteristic.value else {
            log.append("didUpdateValueFor \(characteristic.uuid.uuidString) error")
            return
        }
        if characteristic.uuid == HeartRateCentral.bodySensorLocation {
            log.append("didUpdateValueFor 2A38")
            location = value
        } else if characteristic.uuid == HeartRateCentral.measurement {
            if measurements.isEmpty { log.append("didUpdateValueFor 2A37") }
            measurements.append(value)
        }
    }
}
