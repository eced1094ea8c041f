/// Delivers a notification at the next date matching some date components, once or at
/// every match (UserNotifications' `UNCalendarNotificationTrigger`,
/// https://developer.apple.com/documentation/usernotifications/uncalendarnotificationtrigger):
/// `DateComponents(hour: 9, minute: 0)` with `repeats` is every morning at nine.
///
/// On a simulated phone the calendar is Gregorian in UTC and the date is the phone's
/// (virtual time counts from 1 January 2026, 00:00 UTC). Components no date matches make
/// adding the request fail with ``UNError/Code/notificationInvalidNoDate``.
open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    // @unchecked Sendable: every property is a `let` set at init, as Apple declares the class Sendable.
    /// The components a date must match.
    public let dateComponents: DateComponents

    /// A trigger at the next date matching `dateComponents`; at every later match too when
    /// `repeats`.
    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        super.init(repeats: repeats)
    }

    /// The next matching date after now on the system's calendar (Apple's), `nil` when none.
    open func nextTriggerDate() -> Date? {
        Calendar.current.nextDate(after: Date(), matching: dateComponents, matchingPolicy: .nextTime)
    }

    override func phoneTrigger() throws(UNError) -> LocalNotificationTriggerValue {
        .calendar(dateComponents, repeats: repeats)
    }
}
