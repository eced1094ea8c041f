/// A local notification request as the phone's notification centre holds it: the posting
/// app, the request's identifier, what the user sees and its trigger (UserNotifications'
/// `UNNotificationRequest` with its `UNNotificationContent`, as values).
public struct LocalNotification: Hashable, Sendable {
    /// The app that added it.
    public var app: String
    /// The app's identifier of the request: a request with the same identifier replaces it.
    public var identifier: String
    /// The title shown in bold.
    public var title: String
    /// The line under the title (often empty).
    public var subtitle: String
    /// The message.
    public var body: String
    /// The number the app's icon shows once it is delivered, if any.
    public var badge: Int?
    /// Whether it plays a sound.
    public var sound: Bool
    /// The category of actions it offers (`categoryIdentifier`).
    public var categoryIdentifier: String
    /// The thread it is grouped in (`threadIdentifier`).
    public var threadIdentifier: String
    /// When it is delivered.
    public var trigger: LocalNotificationTrigger

    /// A request; by default without subtitle, body, badge, sound or grouping, delivered at once.
    public init(app: String, identifier: String, title: String, subtitle: String = "", body: String = "", badge: Int? = nil,
                sound: Bool = false, categoryIdentifier: String = "", threadIdentifier: String = "",
                trigger: LocalNotificationTrigger = .immediate) {
        self.app = app
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
        self.trigger = trigger
    }
}

/// A local notification the phone delivered, and when (UserNotifications' `UNNotification`).
public struct DeliveredNotification: Hashable, Sendable {
    /// The request delivered.
    public var request: LocalNotification
    /// When, in microseconds of the phone's clock.
    public var time: Int64

    /// A delivery.
    public init(request: LocalNotification, time: Int64) {
        self.request = request
        self.time = time
    }
}
