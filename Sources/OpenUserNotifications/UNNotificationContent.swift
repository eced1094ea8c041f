/// What a notification shows (UserNotifications' `UNNotificationContent`,
/// https://developer.apple.com/documentation/usernotifications/unnotificationcontent):
/// immutable; make one with ``UNMutableNotificationContent``.
///
/// `@unchecked Sendable`, as Apple declares it: an instance of this class never changes
/// after it is made (a request copies the mutable content it is given into one).
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    struct Values {
        var title = ""
        var subtitle = ""
        var body = ""
        var badge: NSNumber?
        var sound: UNNotificationSound?
        var userInfo: [AnyHashable: Any] = [:]
        var categoryIdentifier = ""
        var threadIdentifier = ""
        var launchImageName = ""
        var targetContentIdentifier: String?
    }

    var values: Values

    init(values: Values) {
        self.values = values
    }

    /// Empty content.
    public override init() {
        values = Values()
    }

    /// The title, shown in bold.
    public var title: String { values.title }
    /// The line under the title.
    public var subtitle: String { values.subtitle }
    /// The message.
    public var body: String { values.body }
    /// The number the app's icon shows once it is delivered; `nil` leaves it, 0 removes it.
    public var badge: NSNumber? { values.badge }
    /// The sound played; `nil` for none.
    public var sound: UNNotificationSound? { values.sound }
    /// The app's own data, handed back with the notification.
    public var userInfo: [AnyHashable: Any] { values.userInfo }
    /// The category of actions (`UNNotificationCategory`) it offers.
    public var categoryIdentifier: String { values.categoryIdentifier }
    /// The thread it is grouped with in the notification centre.
    public var threadIdentifier: String { values.threadIdentifier }
    /// The launch image shown when the app opens from it.
    public var launchImageName: String { values.launchImageName }
    /// The window or content the app shows when opened from it.
    public var targetContentIdentifier: String? { values.targetContentIdentifier }

    /// An immutable copy.
    open func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(values: values) }

    /// A mutable copy.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        let copy = UNMutableNotificationContent()
        copy.values = values
        return copy
    }

    /// Equal to content with the same texts, badge, identifiers and sound presence (user
    /// info, holding `Any`, is not compared).
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationContent else { return false }
        return title == other.title && subtitle == other.subtitle && body == other.body && badge == other.badge
            && (sound == nil) == (other.sound == nil) && categoryIdentifier == other.categoryIdentifier
            && threadIdentifier == other.threadIdentifier
    }

    /// A hash of the title and body, consistent with ``isEqual(_:)``.
    open override var hash: Int { title.hashValue ^ body.hashValue }
}
