/// Whether the app may post notifications (UserNotifications' `UNAuthorizationStatus`,
/// https://developer.apple.com/documentation/usernotifications/unauthorizationstatus), with
/// Apple's raw values.
public enum UNAuthorizationStatus: Int, Sendable {
    /// The user has not been asked yet.
    case notDetermined = 0
    /// The user refused.
    case denied = 1
    /// The user allowed notifications.
    case authorized = 2
    /// Allowed quietly, without asking (the `provisional` option).
    case provisional = 3
    /// Allowed for a limited time (App Clips).
    case ephemeral = 4
}
