import BLE
import OpenCoreLocation

/// The phone's own region monitoring for an app's location triggers: a location manager
/// that belongs to the system, not to the app, so that a crossing reaches the phone's
/// notification centre whatever the app's state (`UNLocationNotificationTrigger`).
final class NotificationRegionWatcher: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    // @unchecked Sendable: `storedOptions` and `manager` are read and written under `lock`;
    // the delegate methods run on the main queue and touch only the Sendable phone.
    private let phone: SimulatedPhone
    private let app: String
    private let lock = NSLock()
    private var storedOptions = CLLocationManager.Options()
    private var manager: CLLocationManager?

    init(phone: SimulatedPhone, app: String) {
        self.phone = phone
        self.app = app
    }

    /// How the manager listens; changed before the first region is monitored.
    var options: CLLocationManager.Options {
        get { lock.withLock { storedOptions } }
        set { lock.withLock { storedOptions = newValue } }
    }

    /// Monitors `region` for the app's location triggers.
    func monitor(_ region: CLRegion) {
        let manager = lock.withLock { () -> CLLocationManager in
            if let manager = self.manager { return manager }
            let options = storedOptions
            // Made outside the app's launch: the system's manager, not one of the app's.
            let manager = PhoneApp.$launching.withValue(nil) { CLLocationManager(options: options) }
            self.manager = manager
            return manager
        }
        manager.delegate = self
        manager.startMonitoring(for: region)
    }

    /// Stops monitoring every region and lets the manager go (its controller closes).
    func stop() {
        guard let manager = lock.withLock({ () -> CLLocationManager? in
            defer { self.manager = nil }
            return self.manager
        }) else { return }
        for region in manager.monitoredRegions { manager.stopMonitoring(for: region) }
        manager.delegate = nil
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        phone.notificationRegionCrossed(region.identifier, of: app, entered: true)
    }

    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        phone.notificationRegionCrossed(region.identifier, of: app, entered: false)
    }

    /// A region that cannot be monitored (not a beacon region, no controller): its location
    /// triggers never fire, and the phone's timeline says why.
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        phone.dropped(.region, "location trigger region \(region?.identifier ?? "?")", for: app,
                      reason: "the phone cannot monitor the region: \(error)")
    }
}
