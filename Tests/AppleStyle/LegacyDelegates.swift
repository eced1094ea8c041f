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

class LegacyScanner: NSObject, CBCentralManagerDelegate {
    var central: CBCentralManager!
    var names: Set<String> = []

    func start(options: [String: Any]?) {
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: nil, options: nil) }
    }

    func centralManager(_ central: CBCentralManager!, didDiscover peripheral: CBPeripheral!,
                        advertisementData: [String: Any]!, rssi RSSI: NSNumber!) {
        if let name = advertisementData[CBAdvertisementDataLocalNameKey] as? String { names.insert(name) }
    }
}
