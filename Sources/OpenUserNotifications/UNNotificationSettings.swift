/// Whether a notification setting is on (UserNotifications' `UNNotificationSetting`).
public enum UNNotificationSetting: Int, Sendable {
    /// The app does not have the setting.
    case notSupported = 0
    /// Off.
    case disabled = 1
    /// On.
    case enabled = 2
}

/// The app's notification settings (UserNotifications' `UNNotificationSettings`,
/// https://developer.apple.com/documentation/usernotifications/unnotificationsettings):
/// its ``authorizationStatus``, and the settings that follow from it (all enabled when the
/// app may post, all disabled when it may not; provisional: the notification centre only).
///
/// `@unchecked Sendable`, as Apple declares it: immutable.
open class UNNotificationSettings: NSObject, @unchecked Sendable {
    /// Whether the app may post.
    public let authorizationStatus: UNAuthorizationStatus

    init(authorizationStatus: UNAuthorizationStatus) {
        self.authorizationStatus = authorizationStatus
    }

    private var full: UNNotificationSetting {
        authorizationStatus == .authorized || authorizationStatus == .ephemeral ? .enabled : .disabled
    }

    /// Whether the notification centre lists the app's notifications.
    public var notificationCenterSetting: UNNotificationSetting {
        authorizationStatus == .provisional ? .enabled : full
    }
    /// Whether they show on the lock screen.
    public var lockScreenSetting: UNNotificationSetting { full }
    /// Whether they show as alerts (banners).
    public var alertSetting: UNNotificationSetting { full }
    /// Whether they play sounds.
    public var soundSetting: UNNotificationSetting { full }
    /// Whether they change the badge.
    public var badgeSetting: UNNotificationSetting { full }
}
