import OpenCoreLocation

/// Delivers a notification when the device enters or leaves a region
/// (UserNotifications' `UNLocationNotificationTrigger`,
/// https://developer.apple.com/documentation/usernotifications/unlocationnotificationtrigger):
/// on a simulated phone, a ``CLBeaconRegion`` of OpenCoreLocation.
///
/// The phone's system monitors the region, not the app: the notification is delivered
/// whether the app is in the foreground, suspended or terminated, on entry when the
/// region's `notifyOnEntry` is set and on exit when its `notifyOnExit` is. As Apple
/// requires, the app needs location authorization, When In Use sufficing; without it the
/// crossing delivers nothing (the phone's timeline says why).
open class UNLocationNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    // @unchecked Sendable: its property is a `let` set at init, as Apple declares the class
    // Sendable; the region it refers to is shared as on Apple's platforms.
    /// The region whose crossing delivers the notification.
    public let region: CLRegion

    /// A trigger on `region`'s entry or exit (as its `notifyOnEntry` and `notifyOnExit`
    /// say); every crossing when `repeats`, else the first.
    public init(region: CLRegion, repeats: Bool) {
        // Apple copies the region: later changes to the app's object change nothing.
        self.region = (region.copy() as? CLRegion) ?? region
        super.init(repeats: repeats)
    }

    override func phoneTrigger() throws(UNError) -> LocalNotificationTriggerValue {
        .region(region, repeats: repeats)
    }
}
