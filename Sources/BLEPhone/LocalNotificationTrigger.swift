import Foundation

/// When the phone delivers a pending local notification: the sans-IO form of
/// UserNotifications' `UNNotificationTrigger` subclasses.
public enum LocalNotificationTrigger: Hashable, Sendable {
    /// At once, when added (a request whose trigger is `nil`).
    case immediate
    /// `interval` microseconds after the request was added, again every `interval` when
    /// `repeats` (`UNTimeIntervalNotificationTrigger`).
    case timeInterval(microseconds: Int64, repeats: Bool)
    /// When the phone's region monitoring sees the device enter (`onEntry`) or leave
    /// (`onExit`) the region named `region`; again on each crossing when `repeats`
    /// (`UNLocationNotificationTrigger`).
    case region(String, onEntry: Bool, onExit: Bool, repeats: Bool)
    /// At the next date on the phone's calendar (Gregorian, UTC) matching `components`;
    /// again at each later match when `repeats` (`UNCalendarNotificationTrigger`).
    case calendar(DateComponents, repeats: Bool)

    /// Whether the trigger stays pending after it fires.
    public var repeats: Bool {
        switch self {
        case .immediate: false
        case let .timeInterval(_, repeats), let .region(_, _, _, repeats), let .calendar(_, repeats): repeats
        }
    }
}
