// Written as Apple-platform code is: only the import differs. Nothing here names SwiftBLE
// except the options dictionary the test passes in.
import Foundation
#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif

class SensorExplorer: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    let controlPoint = CBUUID(string: "2A39")
    let measurement = CBUUID(string: "2A37")
    var centralManager: CBCentralManager!
    var peripheral: CBPeripheral?
    var events: [String] = []
    var rssi: NSNumber?
    var configuration: NSNumber?
    var channelError: Error?

    init(options: [String: Any]?) {
        super.init()
        centralManager = CBCentralManager(delegate: self, queue: DispatchQueue.main, options: options)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        switch central.state {
        case .poweredOn:
            central.scanForPeripherals(withServices: [CBUUID(string: "180D")],
                                       options: [CBCentralManagerScanOptionAllowDuplicatesKey: false])
        case .unknown, .resetting, .unsupported, .unauthorized, .poweredOff:
            events.append("not powered on")
        @unknown default:
            break
        }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard self.peripheral == nil, advertisementData[CBAdvertisementDataIsConnectable] as? Bool == true else { return }
        self.peripheral = peripheral
        central.stopScan()
        central.connect(peripheral, options: [CBConnectPeripheralOptionNotifyOnDisconnectionKey: true])
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.readRSSI()
        peripheral.discoverServices(nil)
    }

    func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: Error?) {
        rssi = RSSI
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        guard let services = peripheral.services else { return }
        for service in services where service.uuid == CBUUID(string: "180D") {
            peripheral.discoverCharacteristics(nil, for: service)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        for characteristic in service.characteristics ?? [] {
            if characteristic.properties.contains(.notify) { peripheral.discoverDescriptors(for: characteristic) }
            if characteristic.uuid == controlPoint, characteristic.properties.contains(.write) {
                // Reset Energy Expended (Heart Rate Service §3.3).
                peripheral.writeValue(Data([0x01]), for: characteristic, type: .withResponse)
            }
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: Error?) {
        for descriptor in characteristic.descriptors ?? [] where descriptor.uuid.uuidString == CBUUIDClientCharacteristicConfigurationString {
            peripheral.readValue(for: descriptor)
        }
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: Error?) {
        configuration = descriptor.value as? NSNumber
        events.append("descriptor \(descriptor.uuid.uuidString)")
        // An L2CAP channel to a PSM nobody published: refused.
        peripheral.openL2CAPChannel(0x0081)
    }

    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: Error?) {
        events.append(error == nil ? "wrote \(characteristic.uuid.uuidString)" : "write failed")
    }

    func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: Error?) {
        channelError = error
        events.append(channel == nil ? "no channel" : "channel")
        events.append("max write \(peripheral.maximumWriteValueLength(for: .withResponse))")
        centralManager.cancelPeripheralConnection(peripheral)
    }

    func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: Error?) {
        // The embedded world runs on the wall clock: on a loaded machine (the whole suite in
        // CI) a link can be lost to its supervision timeout before the explorer is done. An
        // app connects again; so does the explorer, starting its record afresh (twice at most).
        if error != nil, reconnections < 2 {
            reconnections += 1
            events.removeAll()
            central.connect(peripheral, options: [CBConnectPeripheralOptionNotifyOnDisconnectionKey: true])
            return
        }
        events.append("disconnected")
    }

    /// Links lost and connected again (see `didDisconnectPeripheral`).
    private var reconnections = 0
}
