import Foundation

/// How a delivered local notification reached the user.
public enum NotificationPresentation: Hashable, Sendable {
    /// The app was not in the foreground: the system showed it on the lock screen (as a
    /// banner when the phone is unlocked) and kept it in the notification centre.
    case lockScreen
    /// The app was in the foreground: its delegate's `willPresent` chose the options
    /// (`banner`, `list`, `sound`); with none of them the user saw nothing, which is what an
    /// app without `willPresent` gets (Apple, "Handling notifications and
    /// notification-related actions").
    case foreground(banner: Bool, list: Bool, sound: Bool)

    /// Whether the notification stays in the notification centre (the delivered list).
    public var isListed: Bool {
        switch self {
        case .lockScreen: true
        case let .foreground(_, list, _): list
        }
    }

    /// Whether the user saw it at all.
    public var isShown: Bool {
        switch self {
        case .lockScreen: true
        case let .foreground(banner, list, _): banner || list
        }
    }

    /// "lock screen", "banner, list", "not shown (app in the foreground)".
    public var description: String {
        switch self {
        case .lockScreen: return "lock screen"
        case let .foreground(banner, list, sound):
            let parts = [banner ? "banner" : nil, list ? "list" : nil, sound ? "sound" : nil].compactMap { $0 }
            return parts.isEmpty ? "not shown (app in the foreground)" : parts.joined(separator: ", ")
        }
    }
}

/// One line of what the phone's lock screen and notification centre showed: the
/// observable log tests judge and `ble sim run` prints.
public struct LockScreenEntry: Hashable, Sendable, CustomStringConvertible {
    /// When, in microseconds of the phone's clock.
    public var time: Int64
    /// The app whose notification it is.
    public var app: String
    /// The request's identifier.
    public var identifier: String
    /// Its title.
    public var title: String
    /// Its subtitle.
    public var subtitle: String
    /// Its body.
    public var body: String
    /// How the user saw it.
    public var presentation: NotificationPresentation

    /// An entry.
    public init(time: Int64, app: String, identifier: String, title: String, subtitle: String, body: String,
                presentation: NotificationPresentation) {
        self.time = time
        self.app = app
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.presentation = presentation
    }

    /// `12.600 s  Shop: “Welcome back” — 10 % off today (lock screen)`.
    public var description: String {
        let seconds = String(format: "%.3f s", Double(time) / 1e6)
        let text = body.isEmpty ? "" : " — \(body)"
        return "\(seconds)  \(app): “\(title)”\(text) (\(presentation.description))"
    }
}
