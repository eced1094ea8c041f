import Foundation
#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif

/// An app that scans and counts what it discovers, as Apple-platform code writes it: for
/// every peripheral (`services` nil) or for some services, with or without duplicates.
final class ScanningApp: NSObject, CBCentralManagerDelegate {
    var manager: CBCentralManager!
    let services: [CBUUID]?
    let allowDuplicates: Bool
    /// The local names (or identifiers) of the discoveries, in order.
    var discoveries: [String] = []
    /// The advertisement data of each discovery, in order.
    var advertisementData: [[String: Any]] = []
    /// Called at each discovery, after it is counted.
    var onDiscover: (() -> Void)?

    init(services: [CBUUID]?, allowDuplicates: Bool, controller: String) {
        self.services = services
        self.allowDuplicates = allowDuplicates
        super.init()
        manager = CBCentralManager(delegate: self, queue: nil, options: [OpenCoreBluetoothControllerOptionKey: controller])
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        guard central.state == .poweredOn else { return }
        central.scanForPeripherals(withServices: services, options: [CBCentralManagerScanOptionAllowDuplicatesKey: allowDuplicates])
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        discoveries.append(peripheral.name ?? peripheral.identifier.uuidString)
        self.advertisementData.append(advertisementData)
        onDiscover?()
    }
}
