// Delegates as code first written against the Swift 1 SDKs spells them: every object
// parameter implicitly unwrapped. Apple's Objective-C protocols call these; so must ours.
#if canImport(CoreBluetooth)
import CoreBluetooth
import CoreLocation
#else
import OpenCoreBluetooth
import OpenCoreLocation
#endif

class LegacyBeaconWatcher: NSObject, CLLocationManagerDelegate {
    var locationManager: CLLocationManager!
    var entered: [String] = []
    var rangedCounts: [Int] = []
    var authorizations: [CLAuthorizationStatus] = []

    func start(uuid: UUID) {
        locationManager = CLLocationManager()
        locationManager.delegate = self
        let region = CLBeaconRegion(proximityUUID: uuid, identifier: "street")
        locationManager.startMonitoring(for: region)
        locationManager.startRangingBeacons(in: region)
    }

    func locationManager(_ manager: CLLocationManager!, didChangeAuthorization status: CLAuthorizationStatus) {
        authorizations.append(status)
    }

    func locationManager(_ manager: CLLocationManager!, didEnterRegion region: CLRegion!) {
        entered.append(region.identifier)
    }

    func locationManager(_ manager: CLLocationManager!, didRangeBeacons beacons: [CLBeacon]!, in region: CLBeaconRegion!) {
        rangedCounts.append(beacons.count)
    }
}

/// A central written for iOS 7 to 9: the pre-iOS 10 state enum, the RSSI property read in
/// the deprecated `peripheralDidUpdateRSSI(_:error:)`, implicitly unwrapped parameters.
class LegacyScanner: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    var central: CBCentralManager!
    var names: Set<String> = []
    var legacyStates: [CBCentralManagerState] = []
    var peripheral: CBPeripheral?
    var rssiReadings: [Int] = []

    func start(options: [String: Any]?) {
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if let state = CBCentralManagerState(rawValue: central.state.rawValue) { legacyStates.append(state) }
        if central.state == .poweredOn { central.scanForPeripherals(withServices: nil, options: nil) }
    }

    func centralManager(_ central: CBCentralManager!, didDiscover peripheral: CBPeripheral!,
                        advertisementData: [String: Any]!, rssi RSSI: NSNumber!) {
        if let name = advertisementData[CBAdvertisementDataLocalNameKey] as? String { names.insert(name) }
        if self.peripheral == nil, advertisementData[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] == [CBUUID(string: "180D")] {
            self.peripheral = peripheral
            central.connect(peripheral, options: nil)
        }
    }

    func centralManager(_ central: CBCentralManager!, didConnect peripheral: CBPeripheral!) {
        peripheral.delegate = self
        peripheral.readRSSI()
    }

    func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral!, error: Error!) {
        if error == nil, let rssi = peripheral.rssi { rssiReadings.append(rssi.intValue) }
    }
}
