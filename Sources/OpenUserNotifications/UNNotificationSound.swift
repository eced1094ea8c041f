/// The sound a notification plays (UserNotifications' `UNNotificationSound`,
/// https://developer.apple.com/documentation/usernotifications/unnotificationsound). The
/// simulated phone plays none; it records only whether there is one.
open class UNNotificationSound: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after init, as Apple declares it Sendable.
    /// The name of the sound file, `nil` for the default sound.
    let name: String?

    init(name: String?) {
        self.name = name
    }

    /// The system's default notification sound.
    public class var `default`: UNNotificationSound { UNNotificationSound(name: nil) }

    /// The sound in the app's bundle named `name`.
    public convenience init(named name: UNNotificationSoundName) {
        self.init(name: name.rawValue)
    }
}

/// The name of a sound file in the app's bundle (`UNNotificationSoundName`).
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
    /// The file name.
    public let rawValue: String

    /// A name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}
