// Written as Apple-platform beacon code commonly is: only the import differs. It uses the
// names Apple deprecated and still ships (`proximityUUID`, region-based ranging, the
// class `authorizationStatus()`, `didChangeAuthorization`), makes its manager and sets the
// delegate in an ordinary method of an NSObject subclass, and imports nothing but the
// location module (Foundation comes with it).
#if canImport(CoreLocation)
import CoreLocation
#else
import OpenCoreLocation
#endif

class BeaconWatcher: NSObject, CLLocationManagerDelegate {
    var locationManager: CLLocationManager?
    var entered: [String] = []
    var rangedCounts: [Int] = []
    var authorizations: [CLAuthorizationStatus] = []
    var proximities: Set<Int> = []

    func start(uuid: UUID) {
        if CLLocationManager.authorizationStatus() == .notDetermined {
            locationManager?.requestAlwaysAuthorization()
        }
        let manager = CLLocationManager()
        manager.delegate = self
        let region = CLBeaconRegion(proximityUUID: uuid, identifier: "street")
        region.notifyEntryStateOnDisplay = true
        manager.startMonitoring(for: region)
        manager.startRangingBeacons(in: region)
        locationManager = manager
    }

    func stop() {
        guard let manager = locationManager else { return }
        for region in manager.rangedRegions {
            if let beaconRegion = region as? CLBeaconRegion { manager.stopRangingBeacons(in: beaconRegion) }
        }
        for region in manager.monitoredRegions { manager.stopMonitoring(for: region) }
    }

    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        authorizations.append(status)
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        entered.append(region.identifier)
    }

    func locationManager(_ manager: CLLocationManager, didRangeBeacons beacons: [CLBeacon], in region: CLBeaconRegion) {
        rangedCounts.append(beacons.count)
        for beacon in beacons where beacon.uuid == region.proximityUUID {
            proximities.insert(beacon.proximity.rawValue)
        }
    }
}
