/// Notification content an app fills in (UserNotifications'
/// `UNMutableNotificationContent`,
/// https://developer.apple.com/documentation/usernotifications/unmutablenotificationcontent):
///
/// ```swift
/// let content = UNMutableNotificationContent()
/// content.title = "Welcome back"
/// content.body = "10 % off today"
/// content.sound = .default
/// ```
///
/// Sendable by inheritance, as Apple's is; a ``UNNotificationRequest`` copies it, so
/// changing it after making the request changes nothing scheduled.
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    // @unchecked Sendable: Apple declares it so; like Apple's, it is meant to be filled in on one
    // thread and then handed over, and a request copies it, so nothing scheduled shares its state.
    /// Empty content.
    public override init() {
        super.init()
    }

    /// The title, shown in bold.
    public override var title: String {
        get { values.title }
        set { values.title = newValue }
    }

    /// The line under the title.
    public override var subtitle: String {
        get { values.subtitle }
        set { values.subtitle = newValue }
    }

    /// The message.
    public override var body: String {
        get { values.body }
        set { values.body = newValue }
    }

    /// The number the app's icon shows once it is delivered.
    public override var badge: NSNumber? {
        get { values.badge }
        set { values.badge = newValue }
    }

    /// The sound played (`.default`); `nil` for none.
    public override var sound: UNNotificationSound? {
        get { values.sound }
        set { values.sound = newValue }
    }

    /// The app's own data, handed back with the notification.
    public override var userInfo: [AnyHashable: Any] {
        get { values.userInfo }
        set { values.userInfo = newValue }
    }

    /// The category of actions it offers.
    public override var categoryIdentifier: String {
        get { values.categoryIdentifier }
        set { values.categoryIdentifier = newValue }
    }

    /// The thread it is grouped with.
    public override var threadIdentifier: String {
        get { values.threadIdentifier }
        set { values.threadIdentifier = newValue }
    }

    /// The launch image shown when the app opens from it.
    public override var launchImageName: String {
        get { values.launchImageName }
        set { values.launchImageName = newValue }
    }

    /// The window or content the app shows when opened from it.
    public override var targetContentIdentifier: String? {
        get { values.targetContentIdentifier }
        set { values.targetContentIdentifier = newValue }
    }
}
