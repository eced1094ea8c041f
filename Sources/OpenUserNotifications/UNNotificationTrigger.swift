import OpenCoreLocation

/// When a notification request is delivered (UserNotifications' abstract
/// `UNNotificationTrigger`,
/// https://developer.apple.com/documentation/usernotifications/unnotificationtrigger): one
/// of its subclasses, or no trigger at all for "now".
///
/// `@unchecked Sendable`, as Apple declares it: immutable after init.
open class UNNotificationTrigger: NSObject, @unchecked Sendable {
    /// Whether the request stays scheduled after it fires, to fire again.
    public let repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
    }

    /// The phone's form of the trigger, or the error Apple's framework raises for it.
    func phoneTrigger() throws(UNError) -> LocalNotificationTriggerValue {
        .immediate
    }
}

/// The trigger as the phone takes it, with the region a location trigger needs monitored.
enum LocalNotificationTriggerValue {
    case immediate
    case timeInterval(microseconds: Int64, repeats: Bool)
    case calendar(DateComponents, repeats: Bool)
    case region(CLRegion, repeats: Bool)
}
