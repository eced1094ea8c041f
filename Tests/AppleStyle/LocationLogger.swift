// Written as Apple-platform location code commonly is: a logger that asks for the best
// accuracy, a distance filter and background updates, and records fixes and headings.
#if canImport(CoreLocation)
import CoreLocation
#else
import OpenCoreLocation
#endif

class LocationLogger: NSObject, CLLocationManagerDelegate {
    let manager: CLLocationManager
    var locations: [CLLocation] = []
    var headings: [CLLocationDirection] = []
    var errors: [Error] = []

    init(manager: CLLocationManager = CLLocationManager()) {
        self.manager = manager
        super.init()
    }

    func start() {
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.distanceFilter = 5
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false
        manager.activityType = .fitness
        manager.startUpdatingLocation()
        if CLLocationManager.headingAvailable() { manager.startUpdatingHeading() }
    }

    func stop() {
        manager.stopUpdatingLocation()
        manager.stopUpdatingHeading()
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        self.locations.append(contentsOf: locations)
    }

    func locationManager(_ manager: CLLocationManager, didUpdateHeading newHeading: CLHeading) {
        headings.append(newHeading.trueHeading)
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        errors.append(error)
    }
}
