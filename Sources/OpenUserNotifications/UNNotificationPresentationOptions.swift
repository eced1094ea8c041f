/// How a notification arriving while the app is in the foreground is shown, as the
/// delegate's `willPresent` answers (UserNotifications'
/// `UNNotificationPresentationOptions`,
/// https://developer.apple.com/documentation/usernotifications/unnotificationpresentationoptions),
/// with Apple's raw values. None of them: the user sees nothing.
public struct UNNotificationPresentationOptions: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt

    /// Options from bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Update the badge.
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    /// Play the sound.
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    /// Show as an alert: a banner in the notification centre's list (deprecated by Apple in
    /// iOS 14 for `banner` and `list`; both, here).
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    /// Keep it in the notification centre.
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    /// Show it as a banner.
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}
