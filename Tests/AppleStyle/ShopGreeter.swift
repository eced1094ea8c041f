// Written as iOS beacon apps commonly greet a visitor: When In Use location permission
// (enough, since the system, not the app, watches the region), notification permission,
// and a notification the system delivers on entering the shop's beacon region, whether
// the app runs or not. Only the imports differ.
#if canImport(UserNotifications)
import CoreLocation
import UserNotifications
#else
import OpenCoreLocation
import OpenUserNotifications
#endif

class ShopGreeter: NSObject, CLLocationManagerDelegate {
    let locationManager = CLLocationManager()
    let shopUUID: UUID

    init(shopUUID: UUID) {
        self.shopUUID = shopUUID
        super.init()
    }

    func start() {
        locationManager.delegate = self
        locationManager.requestWhenInUseAuthorization()
        let uuid = shopUUID
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) { granted, _ in
            guard granted else { return }
            let content = UNMutableNotificationContent()
            content.title = "Welcome back!"
            content.body = "Show this at the counter for a free coffee."
            content.sound = .default
            let region = CLBeaconRegion(uuid: uuid, identifier: "shop")
            region.notifyOnEntry = true
            region.notifyOnExit = false
            let trigger = UNLocationNotificationTrigger(region: region, repeats: false)
            let request = UNNotificationRequest(identifier: "welcome", content: content, trigger: trigger)
            UNUserNotificationCenter.current().add(request)
        }
    }
}
