// Written as Apple-platform Core Bluetooth code commonly is: only the import differs. The
// managers are made in an ordinary method with `queue: nil` (the main queue), results
// Apple's headers let callers drop are dropped, and nothing but the Bluetooth module is
// imported (Foundation comes with it: NSObject, Data, NSNumber, UUID).
#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif

class SensorLogger: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, CBPeripheralManagerDelegate {
    var central: CBCentralManager!
    var peripheralManager: CBPeripheralManager!
    var sensor: CBPeripheral?
    var heartRates: [UInt8] = []
    var batteryLevel: UInt8?
    var published = false
    let status = CBMutableCharacteristic(type: CBUUID(string: "2A19"), properties: [.read, .notify], value: nil,
                                         permissions: [.readable])

    func start(options: [String: Any]? = nil) {
        central = CBCentralManager(delegate: self, queue: nil, options: options)
        peripheralManager = CBPeripheralManager(delegate: self, queue: nil, options: options)
    }

    // MARK: Central

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn {
            central.scanForPeripherals(withServices: [CBUUID(string: "180D")], options: nil)
        }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard sensor == nil else { return }
        sensor = peripheral
        central.stopScan()
        central.connect(peripheral, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([CBUUID(string: "180D"), CBUUID(string: "180F")])
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        for service in peripheral.services ?? [] {
            peripheral.discoverCharacteristics(nil, for: service)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for characteristic in service.characteristics ?? [] {
            if characteristic.uuid == CBUUID(string: "2A37") { peripheral.setNotifyValue(true, for: characteristic) }
            if characteristic.uuid == CBUUID(string: "2A19") { peripheral.readValue(for: characteristic) }
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        guard let value = characteristic.value else { return }
        switch characteristic.uuid {
        case CBUUID(string: "2A37"):
            // Flags, then an 8-bit rate when bit 0 is clear (Heart Rate Service §3.1).
            if value.count >= 2, value[0] & 0x01 == 0 { heartRates.append(value[1]) }
        case CBUUID(string: "2A19"):
            batteryLevel = value.first
        default:
            break
        }
    }

    // MARK: Peripheral

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        guard peripheral.state == .poweredOn else { return }
        let service = CBMutableService(type: CBUUID(string: "180F"), primary: true)
        service.characteristics = [status]
        peripheral.add(service)
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: Error?) {
        published = error == nil
        // The result says whether the transmit queue took it; Apple-style code often drops it.
        peripheral.updateValue(Data([99]), for: status, onSubscribedCentrals: nil)
    }
}
