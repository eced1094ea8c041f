/// A request to deliver a notification: its identifier, content and trigger
/// (UserNotifications' `UNNotificationRequest`,
/// https://developer.apple.com/documentation/usernotifications/unnotificationrequest).
/// Adding a request whose identifier is pending replaces that one.
///
/// `@unchecked Sendable`, as Apple declares it: immutable, its content copied at init.
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    /// The app's name for the request, unique among its pending and delivered ones.
    public let identifier: String
    /// What the notification shows (an immutable copy of what was given).
    public let content: UNNotificationContent
    /// When it is delivered; `nil` for at once.
    public let trigger: UNNotificationTrigger?

    /// A request for `content` (copied) delivered when `trigger` says, at once when `nil`.
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = UNNotificationContent(values: content.values)
        self.trigger = trigger
    }
}
