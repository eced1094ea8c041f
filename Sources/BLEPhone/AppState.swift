/// Why an app stopped running.
public enum TerminationReason: String, Hashable, Sendable, CaseIterable {
    /// The system ended it (memory pressure, an over-long background task): it may be
    /// relaunched for its preserved Bluetooth work.
    case system
    /// It crashed: it may be relaunched, as after a system termination.
    case crash
    /// The user swiped it away: no Bluetooth relaunch until the user opens it again (on
    /// ``RelaunchProfile/iOS26``, unless it uses AccessorySetupKit).
    case forceQuit
    /// The phone restarted (``PhoneAction/reboot``): relaunched for its preserved work after
    /// the first unlock, except on ``RelaunchProfile/iOS10``.
    case reboot
}

/// Where an app is in its life on the phone (UIKit's application states).
public enum AppState: Hashable, Sendable, CustomStringConvertible {
    /// Never launched since the phone started.
    case notRunning
    /// On screen: runs, sees every event.
    case foreground
    /// Off screen but running: after the user left it (until the grace period ends), while
    /// woken for an event, or in a background task.
    case background
    /// In memory, running no code.
    case suspended
    /// Gone from memory.
    case terminated(TerminationReason)

    /// "foreground", "terminated (forceQuit)".
    public var description: String {
        switch self {
        case .notRunning: "notRunning"
        case .foreground: "foreground"
        case .background: "background"
        case .suspended: "suspended"
        case let .terminated(reason): "terminated (\(reason.rawValue))"
        }
    }

    /// Whether the app runs code now.
    public var isRunning: Bool { self == .foreground || self == .background }
}

/// The background modes an app declares (`UIBackgroundModes` in its Info.plist).
public struct BackgroundModes: OptionSet, Hashable, Sendable {
    /// The bit set.
    public let rawValue: UInt8
    /// Modes from the bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `bluetooth-central`: woken for its central manager's events.
    public static let bluetoothCentral = BackgroundModes(rawValue: 1)
    /// `bluetooth-peripheral`: woken for its peripheral manager's events.
    public static let bluetoothPeripheral = BackgroundModes(rawValue: 2)
    /// `location`: location updates go on in the background.
    public static let location = BackgroundModes(rawValue: 4)

    /// The mode named as in an Info.plist (`bluetooth-central`), or `nil`.
    public init?(name: String) {
        switch name {
        case "bluetooth-central": self = .bluetoothCentral
        case "bluetooth-peripheral": self = .bluetoothPeripheral
        case "location": self = .location
        default: return nil
        }
    }
}

/// What an app's event is about, which decides the background mode it needs.
public enum AppEventKind: Hashable, Sendable {
    /// A central manager's event (discovery, connection, value): needs `bluetooth-central`.
    case central
    /// A peripheral manager's event (subscription, request): needs `bluetooth-peripheral`.
    case peripheral
    /// A monitored region's entry or exit: wakes any authorized app.
    case region
}
