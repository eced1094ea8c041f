/// What the app asks to do with its notifications (UserNotifications'
/// `UNAuthorizationOptions`,
/// https://developer.apple.com/documentation/usernotifications/unauthorizationoptions),
/// with Apple's raw values. Only `provisional` changes what the simulated phone does (no
/// prompt, provisional authorization); the others are accepted and kept.
public struct UNAuthorizationOptions: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt

    /// Options from bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Update the app's badge.
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    /// Play sounds.
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    /// Show alerts.
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    /// Show notifications in CarPlay.
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    /// Play critical alerts (an entitlement Apple grants).
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    /// The system shows a button to the app's own notification settings.
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    /// Post provisionally, without asking the user: notifications go quietly to the
    /// notification centre.
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}
