/// Delivers a notification a number of seconds after it is added, once or repeatedly
/// (UserNotifications' `UNTimeIntervalNotificationTrigger`,
/// https://developer.apple.com/documentation/usernotifications/untimeintervalnotificationtrigger).
/// Time is the phone's: virtual time in a simulated world.
///
/// Apple raises an exception when such a trigger is made with an interval of 0 or less, or
/// a repeating one under 60 s ("time interval must be at least 60 if repeating"). Here
/// nothing traps: the trigger is made, and adding its request fails with
/// ``UNError/Code/notificationInvalidNoDate``.
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    // @unchecked Sendable: its properties are `let`s set at init, as Apple declares the class Sendable.
    /// The seconds between adding the request (or the last delivery) and the delivery.
    public let timeInterval: TimeInterval
    /// When the trigger was made: its first date is ``timeInterval`` after it.
    private let made = Date()

    /// A trigger `timeInterval` seconds after the request is added; again every
    /// `timeInterval` when `repeats` (then at least 60 s).
    public init(timeInterval: TimeInterval, repeats: Bool) {
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }

    /// When it would fire, counted from the trigger's making (Apple counts from now).
    open func nextTriggerDate() -> Date? {
        isValid ? made.addingTimeInterval(timeInterval) : nil
    }

    private var isValid: Bool {
        timeInterval.isFinite && timeInterval > 0 && (!repeats || timeInterval >= 60)
    }

    override func phoneTrigger() throws(UNError) -> LocalNotificationTriggerValue {
        guard isValid, timeInterval < 1e12 else {
            let reason = repeats ? "a repeating time interval must be at least 60 s, not \(timeInterval) s"
                : "a time interval must be greater than 0, not \(timeInterval) s"
            throw UNError(.notificationInvalidNoDate, reason: reason)
        }
        return .timeInterval(microseconds: Int64((timeInterval * 1e6).rounded()), repeats: repeats)
    }
}
