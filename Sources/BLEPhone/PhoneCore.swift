/// An app installed on a simulated phone.
public struct AppDescription: Hashable, Sendable {
    /// The app's name, unique on the phone.
    public var name: String
    /// Its declared background modes.
    public var modes: BackgroundModes
    /// Whether its managers use a restore identifier, so the system preserves their work and
    /// relaunches the app for it after a system termination or a crash.
    public var restoresState: Bool
    /// What the phone's user answers when the app asks for location authorization; by
    /// default ``LocationAuthorizationAnswer/always``, "Allow" to what is asked.
    public var locationAuthorization: LocationAuthorizationAnswer
    /// Whether the user leaves Precise Location on (``LocationAccuracy/full``, the default) or
    /// turns it off (``LocationAccuracy/reduced``) when allowing the app location (iOS 14's
    /// switch in the location prompt; Apple's `NSLocationDefaultAccuracyReduced` Info.plist
    /// key makes an app's prompt start with it off).
    public var locationAccuracy: LocationAccuracy
    /// The app's `NSLocationTemporaryUsageDescriptionDictionary` (Info.plist): for each purpose
    /// key, why the app wants full accuracy for a while. A request for temporary full
    /// accuracy with a key not in it shows no prompt and fails (Apple,
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`).
    public var temporaryLocationUsageDescriptions: [String: String]
    /// What the user answers when the app asks for temporary full accuracy: allow (the
    /// default) or not.
    public var allowsTemporaryFullAccuracy: Bool
    /// What the user answers to the Bluetooth permission prompt of the app's first Core
    /// Bluetooth manager; by default ``BluetoothAuthorizationAnswer/allow``.
    public var bluetoothAuthorization: BluetoothAuthorizationAnswer
    /// The app's `NSBluetoothAlwaysUsageDescription` (Info.plist), shown in the permission
    /// prompt; `nil` when the app declares none, and then its first Core Bluetooth manager
    /// gets it terminated, as iOS 13 and later do.
    public var bluetoothUsageDescription: String?
    /// Whether the app set up its accessory with AccessorySetupKit (iOS 18): on
    /// ``RelaunchProfile/iOS26`` only such an app is relaunched for its Bluetooth work after
    /// the user force-quit it (TN3115, 2025). Default `false`.
    public var usesAccessorySetupKit: Bool

    /// The usage description apps get unless they say otherwise.
    public static let defaultBluetoothUsageDescription = "Uses Bluetooth to talk to accessories."

    /// An app; by default without background modes or restoration, its location (precise)
    /// and Bluetooth requests allowed, with a Bluetooth usage description and no temporary
    /// location usage descriptions.
    public init(name: String, modes: BackgroundModes = [], restoresState: Bool = false,
                locationAuthorization: LocationAuthorizationAnswer = .always,
                locationAccuracy: LocationAccuracy = .full,
                temporaryLocationUsageDescriptions: [String: String] = [:],
                allowsTemporaryFullAccuracy: Bool = true,
                bluetoothAuthorization: BluetoothAuthorizationAnswer = .allow,
                bluetoothUsageDescription: String? = AppDescription.defaultBluetoothUsageDescription,
                usesAccessorySetupKit: Bool = false) {
        self.name = name
        self.modes = modes
        self.restoresState = restoresState
        self.locationAuthorization = locationAuthorization
        self.locationAccuracy = locationAccuracy
        self.temporaryLocationUsageDescriptions = temporaryLocationUsageDescriptions
        self.allowsTemporaryFullAccuracy = allowsTemporaryFullAccuracy
        self.bluetoothAuthorization = bluetoothAuthorization
        self.bluetoothUsageDescription = bluetoothUsageDescription
        self.usesAccessorySetupKit = usesAccessorySetupKit
    }
}

/// Something that happened for an app: a Bluetooth delegate call or a region event.
public struct PhoneEvent: Hashable, Sendable {
    /// Which kind, for the background mode it needs.
    public var kind: AppEventKind
    /// What it is, for timelines ("didDisconnect C4:7A:…").
    public var detail: String
    /// When it happened, in microseconds.
    public var time: Int64
    /// A number the layer that raised it uses to find what to do on delivery; the phone
    /// only carries it.
    public var id: UInt64
    /// The identifier of the monitored region a region event is about, when known (for the
    /// device-wide priority of regions, §9 rule 20).
    public var region: String?

    /// An event.
    public init(kind: AppEventKind, detail: String, time: Int64, id: UInt64 = 0, region: String? = nil) {
        self.kind = kind
        self.detail = detail
        self.time = time
        self.id = id
        self.region = region
    }
}

/// What the user or the scenario does to the phone.
public enum PhoneAction: Hashable, Sendable {
    /// Opens the app (from not running or terminated, a fresh launch).
    case launch(String)
    /// Brings the app to the screen.
    case foreground(String)
    /// Leaves the app (home button, another app, screen off while it runs).
    case background(String)
    /// Suspends the app now (the system's decision, ahead of the grace period).
    case suspend(String)
    /// Ends the app.
    case terminate(String, TerminationReason)
    /// The app starts a background task (`beginBackgroundTask`).
    case beginBackgroundTask(String)
    /// The app ends its background task.
    case endBackgroundTask(String)
    /// Bluetooth switched on or off in Settings. Switched on in Airplane Mode, the phone
    /// keeps it on the next time Airplane Mode comes on.
    case bluetooth(on: Bool)
    /// Control Center's Bluetooth button (iOS 11 and later): off, apps' accessories are
    /// disconnected and their Core Bluetooth managers report powered off, but beacon regions
    /// and ranging go on, and the system keeps terminated apps' Bluetooth work, relaunching
    /// them for it once the button is on again (on ``RelaunchProfile/iOS26`` only apps using
    /// AccessorySetupKit). On ``RelaunchProfile/iOS10`` the button is the Settings switch.
    case controlCenterBluetooth(on: Bool)
    /// Airplane Mode: the cellular link goes down, and Bluetooth goes off unless the user
    /// turned it on in Airplane Mode before (``PhonePolicy/bluetoothStaysOnInAirplaneMode``);
    /// off again, both come back.
    case airplaneMode(on: Bool)
    /// The screen goes off (the side button, or the phone locks itself) or comes on (the
    /// lock screen). Off, the app on screen leaves it as with ``background(_:)``; on, no app
    /// returns by itself: the user opens one with ``foreground(_:)`` or ``launch(_:)``, which
    /// also turn the screen on. A monitored region's `notifyEntryStateOnDisplay` is the
    /// location managers' part (§9, rule 23).
    case screen(on: Bool)
    /// The phone restarts: every app that runs or is suspended ends
    /// (``TerminationReason/reboot``), and, with a passcode, nothing is relaunched for
    /// Bluetooth until ``unlock`` (§9, rule 16).
    case reboot
    /// The user unlocks the phone; the first unlock after a restart lets the rules relaunch
    /// apps again (TN3115). Later unlocks change nothing.
    case unlock
}

/// What the phone's system does, for the layers above to carry out and for timelines.
public enum PhoneOutput: Hashable, Sendable {
    /// An app moved from one state to another.
    case stateChanged(app: String, from: AppState, to: AppState)
    /// Deliver these events to the app now, in order.
    case deliver(app: String, events: [PhoneEvent])
    /// The system relaunched the terminated app in the background for `event`: its launch
    /// entry point runs again, with launch options naming its restored managers.
    case relaunched(app: String, for: PhoneEvent)
    /// The event never reaches the app, and why.
    case dropped(app: String, event: PhoneEvent, reason: String)
    /// The system shows an alert on the app's behalf (a connection alert the app asked for
    /// with a `NotifyOn…` option while it is suspended), not a call into the app.
    case alert(app: String, message: String)
    /// A notification of `app` (its bundle identifier) was posted, changed or removed in the
    /// phone's Notification Center: what the user sees, and what ANCS publishes.
    case notification(app: String, change: String)
    /// A request of `app` over the phone's cellular link was made, waited, was answered or
    /// failed (`app` "cellular" for the link itself going up or down).
    case network(app: String, exchange: String)
    /// The system ended `app` as a crash, for `reason` (a privacy violation): the
    /// ``stateChanged(app:from:to:)`` to `terminated (crash)` follows.
    case crashed(app: String, reason: String)
    /// The system changed a setting by itself, not for an app (Control Center's Bluetooth
    /// button coming on again at 5 AM), in words.
    case system(String)
}

/// What the phone refuses.
public enum PhoneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No app of that name is installed.
    case unknownApp(String)
    /// An app of that name is installed already.
    case duplicateApp(String)
    /// The action makes no sense in the app's state (e.g. a background task of a suspended app).
    case invalidAction(String)
    /// Another manager of the app with the same role already uses this restore identifier.
    case restoreIdentifierInUse(String, app: String)

    /// One sentence.
    public var description: String {
        switch self {
        case let .unknownApp(name): "no app called \"\(name)\" is installed on the phone"
        case let .duplicateApp(name): "an app called \"\(name)\" is installed already"
        case let .invalidAction(why): why
        case let .restoreIdentifierInUse(identifier, app):
            "the restore identifier \"\(identifier)\" is used by another manager of \(app); this one's state is not preserved"
        }
    }
}

/// The simulated iPhone's system as a sans-IO state machine (DESIGN.md, "phone"): the apps'
/// states and the background rules deciding, for each event, whether an app sees it now,
/// later (queued until it returns to the foreground), after a wake or a relaunch, or never.
/// Time comes in with each call; ``nextDeadline`` says when to call ``advance(to:)``.
///
/// The rules, from the iOS background research's §9 (`PhonePolicy` holds the numbers):
/// - a backgrounded app is suspended after ``PhonePolicy/suspendGrace`` unless a background
///   task runs; a task over-running ``PhonePolicy/backgroundTaskLimit`` gets the app
///   terminated by the system;
/// - a suspended app with the background mode its event needs is woken for
///   ``PhonePolicy/wakeWindow``, and suspended again after it;
/// - a suspended app without it gets its events queued, in order, until the foreground;
/// - a terminated app (by the system or a crash) that restores state and has the mode is
///   relaunched in the background; after a force-quit or with Bluetooth off it is not
///   (region events relaunch even after a force-quit unless the policy says otherwise);
/// - each app's location authorization is the phone's, asked for in the foreground and
///   answered as the app's description says; ``locationRefusal(for:)`` tells the location
///   layer which events it lets through (When In Use: only in the foreground; with Precise
///   Location off, ``locationAccuracy(of:)`` reduced, none). The core's
///   own routing of region events assumes Always, as scenario apps do.
public struct PhoneCore: Sendable {
    struct App: Sendable {
        var description: AppDescription
        var state: AppState = .notRunning
        /// When a background app is suspended (grace period or wake window end).
        var suspendAt: Int64?
        /// When its background task runs out.
        var taskEndsAt: Int64?
        var queued: [PhoneEvent] = []
        /// Its Core Location authorization, kept across launches (the phone's setting).
        var location: LocationAuthorization = .notDetermined
        /// Its Precise Location setting, chosen when the user first allows it location.
        var accuracy: LocationAccuracy = .full
        /// Whether the user granted it full accuracy while it is in use
        /// (`PhoneCore.requestTemporaryFullLocationAccuracy(for:purposeKey:)`).
        var temporaryFullAccuracy = false
        /// Whether it asked for Always already (Always may be asked for once).
        var askedAlways = false
        /// Its Bluetooth authorization, kept across launches (the phone's setting).
        var bluetooth: BluetoothAuthorization = .notDetermined
        /// Why the system gave up the Bluetooth work it kept for the terminated app, so that
        /// nothing relaunches it for that work (rule 16); cleared when the user opens it.
        var bluetoothWorkDropped: String?
        /// When it last came to the foreground, in the phone's count of such moves (rule 5:
        /// the most recently foreground app gets a shared connection alert); `nil` if never.
        var lastForeground: UInt64?
    }

    /// The numbers in force.
    public let policy: PhonePolicy
    var apps: [String: App] = [:]
    private var order: [String] = []
    /// Whether Bluetooth is on in Settings.
    public internal(set) var bluetoothOn = true
    /// Whether the screen is on (``PhoneAction/screen(on:)``); on at the start.
    public internal(set) var screenOn = true
    /// Whether Control Center's Bluetooth button is on (``PhoneAction/controlCenterBluetooth(on:)``).
    public internal(set) var controlCenterBluetoothOn = true
    /// When Control Center's button, turned off, comes on again by itself (5 AM local time).
    var controlCenterOnAgainAt: Int64?
    /// The time of day on the phone's clock at time 0, in microseconds after local midnight:
    /// the policy's ``PhonePolicy/timeOfDayAtStart``, else 0 for a simulation's virtual time
    /// (1 January 2026, 00:00), the wall clock's time of day at its start otherwise. It
    /// places 5 AM for Control Center's button.
    public var timeOfDayAtZero: Int64 = 0
    /// Whether Airplane Mode is on (``PhoneAction/airplaneMode(on:)``).
    public internal(set) var airplaneModeOn = false
    /// Whether Airplane Mode leaves Bluetooth on: the policy's at first, then what the user
    /// last chose in Airplane Mode.
    public internal(set) var bluetoothStaysOnInAirplaneMode = false
    /// Whether Airplane Mode switched Bluetooth off, to switch it on again when it ends.
    var airplaneModeSwitchedBluetoothOff = false
    /// Whether Core Bluetooth is available to apps: switched on in Settings, with Control
    /// Center's button on.
    public var bluetoothAvailable: Bool { bluetoothOn && controlCenterBluetoothOn }
    /// Whether the phone restarted and has not been unlocked since, with a passcode set:
    /// no app is relaunched for Bluetooth meanwhile (§9, rule 16; TN3115).
    public internal(set) var awaitingFirstUnlock = false
    /// Region entries held back for apps not in the foreground, in order of their time.
    var delayed: [(at: Int64, app: String, event: PhoneEvent)] = []
    /// The seeded sequence (SplitMix64) of the phone's random choices (the entry delays).
    var random: UInt64
    /// The seeded sequence the region monitors of the phone's apps draw their seeds from
    /// (``nextMonitorSeed()``), apart from ``random`` so that entry delays stay as they were.
    var monitorSeeds: UInt64
    /// The seeded sequence the advertising dropouts of the phone's apps draw their seeds from
    /// (``nextAdvertisingDropoutSeed()``), apart from the others so that they stay as they were.
    var dropoutSeeds: UInt64
    /// The seeded sequence of the ready-callback fault's draws, apart from the others.
    var faultSeeds: UInt64
    /// The regions the apps monitor, in the order registered (§9, rule 20).
    var monitoredRegions: [(app: String, identifier: String)] = []
    /// How many times an app came to the foreground, for ``App/lastForeground``.
    var foregroundMoves: UInt64 = 0
    /// The connection alerts each app asked for (`CBConnectPeripheralOptionNotifyOn…`), by
    /// peripheral, then app (§9, rule 5).
    var connectionAlertRequests: [String: [String: Set<String>]] = [:]

    /// A phone with no apps; `seed` makes its random choices repeat.
    public init(policy: PhonePolicy = PhonePolicy(), seed: UInt64 = 0) {
        self.policy = policy
        random = seed
        monitorSeeds = seed ^ 0x6D6F_6E69_746F_7273  // "monitors"
        dropoutSeeds = seed ^ 0x6472_6F70_6F75_7473  // "dropouts"
        faultSeeds = seed ^ 0x6661_756C_7473_0000  // "faults"
        bluetoothStaysOnInAirplaneMode = policy.bluetoothStaysOnInAirplaneMode
        timeOfDayAtZero = policy.timeOfDayAtStart ?? 0
    }

    /// Installs `app`.
    public mutating func install(_ app: AppDescription) throws(PhoneError) {
        guard apps[app.name] == nil else { throw .duplicateApp(app.name) }
        apps[app.name] = App(description: app)
        order.append(app.name)
    }

    /// The installed apps, in the order installed.
    public var appNames: [String] { order }

    /// The state of `app`.
    public func state(of app: String) throws(PhoneError) -> AppState {
        guard let record = apps[app] else { throw .unknownApp(app) }
        return record.state
    }

    /// How `app` was installed, or `nil` when no app of that name is.
    public func description(of app: String) -> AppDescription? { apps[app]?.description }

    /// The events queued for `app` until it returns to the foreground.
    public func queuedEvents(of app: String) -> [PhoneEvent] { apps[app]?.queued ?? [] }

    /// The earliest time ``advance(to:)`` has something to do, if any.
    public var nextDeadline: Int64? {
        (apps.values.flatMap { [$0.suspendAt, $0.taskEndsAt].compactMap { $0 } } + delayed.map(\.at) + [controlCenterOnAgainAt].compactMap { $0 }).min()
    }
}
