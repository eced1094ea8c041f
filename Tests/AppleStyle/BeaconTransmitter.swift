// Written as Apple-platform iBeacon transmitters are: a beacon region's peripheral data,
// handed to a peripheral manager once it is powered on. Only the imports differ.
#if canImport(CoreBluetooth)
import CoreBluetooth
import CoreLocation
#else
import OpenCoreBluetooth
import OpenCoreLocation
#endif

class BeaconTransmitter: NSObject, CBPeripheralManagerDelegate {
    var peripheralManager: CBPeripheralManager?
    var region: CLBeaconRegion?
    var started: [Bool] = []

    func start(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, options: [String: Any]?) {
        region = CLBeaconRegion(uuid: uuid, major: major, minor: minor, identifier: "transmitter")
        peripheralManager = CBPeripheralManager(delegate: self, queue: nil, options: options)
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        guard peripheral.state == .poweredOn, let region else { return }
        let data = region.peripheralData(withMeasuredPower: nil) as? [String: Any]
        peripheral.startAdvertising(data)
    }

    func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: Error?) {
        started.append(error == nil)
    }
}
