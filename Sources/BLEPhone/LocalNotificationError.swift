/// Why the phone's notification centre refuses a request (UserNotifications' `UNError.Code`
/// where Apple has one).
public enum LocalNotificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The app may not post notifications: not authorized, or the user refused
    /// (`UNError.Code.notificationsNotAllowed`).
    case notificationsNotAllowed(app: String, NotificationAuthorization)
    /// A time interval that is not positive, or a repeating one under 60 s: Apple raises an
    /// Objective-C exception when the trigger is made; the phone refuses the request when it
    /// is added instead of trapping (`UNError.Code.notificationInvalidNoDate`, Apple's code
    /// for a trigger with no next date).
    case invalidTimeInterval(seconds: Double, repeats: Bool)
    /// No date after now matches a calendar trigger's components
    /// (`UNError.Code.notificationInvalidNoDate`).
    case noNextDate

    /// One sentence.
    public var description: String {
        switch self {
        case let .notificationsNotAllowed(app, status):
            "\(app) may not post notifications (authorization \(status.rawValue)); ask with requestAuthorization first"
        case let .invalidTimeInterval(seconds, repeats):
            repeats ? "a repeating time interval must be at least 60 s, not \(seconds) s"
                : "a time interval must be greater than 0, not \(seconds) s"
        case .noNextDate:
            "no date after now matches the calendar trigger's date components"
        }
    }
}
