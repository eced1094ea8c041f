/// The identifier of the response when the user opened the app from the notification
/// (`UNNotificationDefaultActionIdentifier`).
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"

/// The identifier of the response when the user dismissed the notification
/// (`UNNotificationDismissActionIdentifier`).
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// What the user did with a notification, handed to the delegate's `didReceive`
/// (UserNotifications' `UNNotificationResponse`,
/// https://developer.apple.com/documentation/usernotifications/unnotificationresponse).
///
/// `@unchecked Sendable`, as Apple declares it: immutable.
open class UNNotificationResponse: NSObject, @unchecked Sendable {
    /// The notification acted on.
    public let notification: UNNotification
    /// What the user chose: ``UNNotificationDefaultActionIdentifier`` for a tap.
    public let actionIdentifier: String

    init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
    }
}
