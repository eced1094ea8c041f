/// A notification the system delivered: the request and the date it was delivered
/// (UserNotifications' `UNNotification`,
/// https://developer.apple.com/documentation/usernotifications/unnotification).
///
/// `@unchecked Sendable`, as Apple declares it: immutable.
open class UNNotification: NSObject, @unchecked Sendable {
    /// The request delivered.
    public let request: UNNotificationRequest
    /// When it was delivered: on a simulated phone, the phone's virtual time as a date
    /// (its clock's start is 1 January 2026, 00:00 UTC).
    public let date: Date

    init(request: UNNotificationRequest, date: Date) {
        self.request = request
        self.date = date
    }
}
