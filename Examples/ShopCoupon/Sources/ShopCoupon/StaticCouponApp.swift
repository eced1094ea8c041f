// The coupon app keyed on the shop's static iBeacon, written as an iOS app is: Core Location
// monitors the shop's beacon region in the background and a region entry shows the coupon.
// Only the imports differ on Linux.
#if canImport(CoreLocation)
import CoreLocation
import UserNotifications
#else
import OpenCoreLocation
import OpenUserNotifications
#endif
import Foundation

/// The coupon keyed on a static iBeacon: the shop's UUID, major and minor never change, so
/// anything that sends the same 30 octets — the shop's beacon or a copy of it far away — is
/// "the shop" to this app. Entering the region shows the coupon on the lock screen.
@MainActor
public final class StaticCouponApp: NSObject, @preconcurrency CLLocationManagerDelegate {
    /// The shop's iBeacon identity.
    public struct ShopBeacon: Sendable {
        /// The proximity UUID.
        public var uuid: UUID
        /// The major number.
        public var major: UInt16
        /// The minor number.
        public var minor: UInt16

        /// A beacon identity with every field.
        public init(uuid: UUID, major: UInt16, minor: UInt16) {
            self.uuid = uuid
            self.major = major
            self.minor = minor
        }
    }

    /// The location manager the app monitors with.
    public let manager: CLLocationManager
    /// The shop's beacon.
    public let shop: ShopBeacon
    private let now: @Sendable () -> Date
    /// The app's notification centre, taken when the app is made (at launch): with several
    /// simulated phones in one process, `current()` outside a launch is the latest launched
    /// app's, and on an iPhone it is the same object either way.
    private let notifications = UNUserNotificationCenter.current()
    /// When the app showed a coupon, by ``now``.
    public private(set) var couponsShown: [Date] = []

    /// The app with its manager (`CLLocationManager()` on an iPhone) and the shop's beacon;
    /// `now` is the clock (`Date()` on an iPhone).
    public init(manager: CLLocationManager, shop: ShopBeacon, now: @escaping @Sendable () -> Date = { Date() }) {
        self.manager = manager
        self.shop = shop
        self.now = now
        super.init()
    }

    private var region: CLBeaconRegion {
        CLBeaconRegion(uuid: shop.uuid, major: CLBeaconMajorValue(shop.major), minor: CLBeaconMinorValue(shop.minor), identifier: "shop")
    }

    /// Asks for Always location and notifications, and monitors the shop's region (the
    /// launch entry point calls it).
    public func start() {
        manager.delegate = self
        manager.requestAlwaysAuthorization()
        notifications.requestAuthorization(options: [.alert, .sound]) { _, _ in }
        manager.startMonitoring(for: region)
    }

    /// Stops monitoring.
    public func stop() {
        manager.stopMonitoring(for: region)
    }

    /// The shop's beacon is heard: the app believes the phone is at the shop.
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        couponsShown.append(now())
        let content = UNMutableNotificationContent()
        content.title = "10% off at the shop today"
        content.body = "Show this at the counter (iBeacon coupon)"
        notifications.add(UNNotificationRequest(identifier: "static-coupon-\(couponsShown.count)", content: content, trigger: nil))
    }
}
