@_exported import BLEPhone
import Foundation

/// An app on a ``SimulatedPhone``: the handle the compatibility layers keep so that each
/// delegate call of the app's managers goes through the phone's system, which delivers it,
/// queues it, wakes or relaunches the app for it, or drops it (DESIGN.md, "phone").
///
/// Managers made while the phone runs an app's launch entry point belong to that app
/// (``launching``); managers made anywhere else belong to no phone and see every event at
/// once, as a Linux program does.
public struct PhoneApp: Sendable {
    /// The phone the app is installed on.
    public let phone: SimulatedPhone
    /// The app's name on that phone.
    public let name: String

    /// The app whose launch entry point is running, for the managers it makes.
    @TaskLocal public static var launching: PhoneApp?

    /// The app's state now.
    public var state: AppState { phone.state(of: name) ?? .notRunning }

    /// The numbers of the phone's rules.
    public var policy: PhonePolicy { phone.policy }

    /// Whether the app declared `mode` in its background modes.
    public func declares(_ mode: BackgroundModes) -> Bool {
        phone.modes(of: name).contains(mode)
    }
}

/// Why an app (re)starts: UIKit's launch options, as far as Bluetooth and location go.
public struct PhoneLaunchOptions: Hashable, Sendable {
    /// The restore identifiers of the central managers the system relaunches the app for
    /// (`UIApplication.LaunchOptionsKey.bluetoothCentrals`).
    public var bluetoothCentrals: [String] = []
    /// The restore identifiers of the peripheral managers the system relaunches the app for
    /// (`UIApplication.LaunchOptionsKey.bluetoothPeripherals`).
    public var bluetoothPeripherals: [String] = []
    /// Whether a location or region event relaunched the app
    /// (`UIApplication.LaunchOptionsKey.location`).
    public var location = false

    /// Whether the system, not the user, started the app.
    public var isRelaunch: Bool { !bluetoothCentrals.isEmpty || !bluetoothPeripherals.isEmpty || location }

    /// Options; empty for a launch by the user.
    public init(bluetoothCentrals: [String] = [], bluetoothPeripherals: [String] = [], location: Bool = false) {
        self.bluetoothCentrals = bluetoothCentrals
        self.bluetoothPeripherals = bluetoothPeripherals
        self.location = location
    }
}

/// A manager of an app on a simulated phone, as the phone's system sees it: it may be told
/// that its app ended, and, when it has a restore identifier, be kept for the app's next
/// launch (Core Bluetooth's state preservation).
public protocol PhoneAppMember: AnyObject, Sendable {
    /// The restore identifier the manager was made with, if any.
    var restoreIdentifier: String? { get }
    /// Which role it plays: `AppEventKind.central` or `AppEventKind.peripheral`.
    var role: AppEventKind { get }
    /// Its app ended. A `preserved` member's links, scans and subscriptions stay with the
    /// system for the app's relaunch; any other member's end with the app.
    func appTerminated(preserved: Bool) async
    /// Its running app moved to `state` (foreground, background, suspended), for the rules
    /// that change what a manager does off screen, such as background advertising.
    func appStateChanged(to state: AppState) async
    /// Its app's location authorization changed (the user answered a prompt), for a Core
    /// Location manager to tell its delegate, as each manager of the app is told.
    func locationAuthorizationChanged()
    /// Bluetooth was switched on or off in Settings, for a Core Bluetooth manager to report
    /// its new state and give up its scan, links, advertising and services, and for a Core
    /// Location manager's beacon regions to go unknown and its ranging to stop.
    func bluetoothSwitched(on: Bool) async
    /// The screen came on (``PhoneAction/screen(on:)``; `afterLock` when it had been off),
    /// for a Core Location manager to tell its app the state of the regions that ask for it
    /// (`notifyEntryStateOnDisplay`, §9, rule 23), and for a central manager on a phone
    /// with the screen-lock fault to lose its scan.
    func screenCameOn(afterLock: Bool) async
}

extension PhoneAppMember {
    /// Nothing to change by default.
    public func appStateChanged(to state: AppState) async {}
    /// Nothing to tell by default: only location managers care.
    public func locationAuthorizationChanged() {}
    /// Nothing to do by default: only Bluetooth and beacon managers care.
    public func bluetoothSwitched(on: Bool) async {}
    /// Nothing to do by default: only location managers care.
    public func screenCameOn(afterLock: Bool) async {}
}

/// One line of a phone's story: what its system did, and when.
public struct PhoneTimelineEntry: Hashable, Sendable, CustomStringConvertible {
    /// When, in microseconds of the phone's clock.
    public var time: Int64
    /// What.
    public var output: PhoneOutput

    /// "12.600 s  Bus: suspended → background".
    public var description: String {
        let seconds = String(format: "%.3f s", Double(time) / 1e6)
        switch output {
        case let .stateChanged(app, from, to): return "\(seconds)  \(app): \(from) → \(to)"
        case let .deliver(app, events): return "\(seconds)  \(app): ← " + events.map(\.detail).joined(separator: ", ")
        case let .relaunched(app, event): return "\(seconds)  \(app): relaunched for \(event.detail)"
        case let .dropped(app, event, reason): return "\(seconds)  \(app): dropped \(event.detail) (\(reason))"
        case let .alert(app, message): return "\(seconds)  \(app): alert \"\(message)\""
        case let .notification(app, change): return "\(seconds)  \(app): notification \(change)"
        case let .network(app, exchange): return "\(seconds)  \(app): \(exchange)"
        case let .crashed(app, reason): return "\(seconds)  \(app): crashed: \(reason)"
        case let .system(change): return "\(seconds)  system: \(change)"
        }
    }
}
