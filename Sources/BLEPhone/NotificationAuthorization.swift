/// An app's permission to post user notifications, as the phone keeps it in Settings
/// (UserNotifications' `UNAuthorizationStatus`). It outlives the app's termination and
/// relaunch, as iOS keeps it.
public enum NotificationAuthorization: String, Hashable, Sendable, CaseIterable {
    /// The app has not asked yet, or the user has not answered (`notDetermined`).
    case notDetermined
    /// The user refused (`denied`): requests are refused at `add` with
    /// `notificationsNotAllowed`.
    case denied
    /// The user allowed notifications (`authorized`).
    case authorized
    /// Allowed quietly without asking the user (`provisional`, asked for with the
    /// `provisional` option): delivered to the notification centre only.
    case provisional
    /// Allowed for a limited time (`ephemeral`, App Clips); no simulated user sets it, but a
    /// test may.
    case ephemeral

    /// Whether requests may be added and delivered.
    public var allowsDelivery: Bool { self == .authorized || self == .provisional || self == .ephemeral }
}

/// What the phone's simulated user answers when an app asks to post notifications
/// (`requestAuthorization(options:completionHandler:)`), set per app on the phone.
public enum NotificationAuthorizationAnswer: String, Hashable, Sendable, CaseIterable {
    /// "Allow" (the default: most tests want notifications through).
    case allow
    /// "Don't Allow".
    case deny
    /// The prompt is never answered: the status stays not determined.
    case undecided
}
