import BLEController
import BLEWire

/// A scenario (DESIGN.md, "The world"): a world's devices, obstacles and scripted actions,
/// read from a YAML file so the same situation runs headless (`ble sim run`), served
/// (`ble sim serve`) or inside a test, and replays exactly from its seed.
public struct Scenario: Hashable, Sendable {
    /// What the scenario is called, for logs and the command line.
    public var name: String
    /// The world's seed; `ble sim run --seed` overrides it.
    public var seed: UInt64
    /// Realistic radio effects, or an ideal radio for fast tests.
    public var timing: TimingMode
    /// The propagation model.
    public var radio: RadioModel
    /// The devices, in the order they are added to the world.
    public var devices: [ScenarioDevice]
    /// Shapes that attenuate the line of sight, fixed in place.
    public var obstacles: [Obstacle]
    /// Shapes that move with a device (a bus's metal body), in the file's `obstacles` list
    /// with `attachedTo`.
    public var attachedObstacles: [ScenarioAttachedObstacle]
    /// What happens when, in the order given.
    public var actions: [ScenarioTimedAction]
    /// How many simulated seconds the scenario takes to play out, when it says:
    /// `ble sim run` runs that long unless `--until` says otherwise.
    public var durationSeconds: Double?
    /// Where the world's (0, 0) is on Earth (the file's `origin`), for the locations its
    /// devices report; `nil` when the file does not say.
    public var origin: GeographicOrigin?
    /// The named places the world's truth is scored against (the file's `zones`), in order:
    /// a device is in the first zone that contains it.
    public var zones: [ScenarioZone] = []
    /// Which field system the scenario plays (the file's `system`, e.g. `ride-log`), when it
    /// is one: `ble sim run` then runs that system's gateways, back end, phones and apps and
    /// prints its story (BLESystems, which also refuses a name it does not know); `nil` for a
    /// plain world.
    public var system: String?

    /// The seed used when a file names none.
    public static let defaultSeed: UInt64 = 1

    /// A scenario with every field; all but the name defaulted.
    public init(name: String, seed: UInt64 = Scenario.defaultSeed, timing: TimingMode = .realistic,
                radio: RadioModel = RadioModel(), devices: [ScenarioDevice] = [], obstacles: [Obstacle] = [],
                attachedObstacles: [ScenarioAttachedObstacle] = [], actions: [ScenarioTimedAction] = [],
                durationSeconds: Double? = nil, origin: GeographicOrigin? = nil) {
        self.name = name
        self.seed = seed
        self.timing = timing
        self.radio = radio
        self.devices = devices
        self.obstacles = obstacles
        self.attachedObstacles = attachedObstacles
        self.actions = actions
        self.durationSeconds = durationSeconds
        self.origin = origin
    }

    /// The world configuration the scenario describes: its seed, timing, radio and origin.
    public var worldConfiguration: WorldConfiguration {
        WorldConfiguration(seed: seed, timing: timing, radio: radio, geographicOrigin: origin)
    }

    /// The device called `name`, if any.
    public func device(named name: String) -> ScenarioDevice? { devices.first { $0.name == name } }
}

/// One device of a scenario: where it is, its radio, and who drives its controller.
public struct ScenarioDevice: Hashable, Sendable {
    /// Who drives a device's controller over HCI.
    public enum HostKind: String, Hashable, Sendable, CaseIterable {
        /// A host inside the world: a ``ScriptedHost`` that sets up the device's advertising,
        /// or a ``ScriptedScanner`` that sets up its scanning.
        case scripted
        /// A GATT server: a real host outside the world (a `BLEProfiles` peripheral started
        /// by the adapter) serves the standard services named in ``ScenarioDevice/gatt`` and
        /// advertises what ``ScenarioDevice/advertising`` says. Where no host attaches (a
        /// headless `ble sim run` on the virtual clock), a ``ScriptedHost`` stands in and
        /// only advertises.
        case gatt
        /// A host outside the world attaches over HCI (e.g. `ble sim serve` over TCP).
        case external
        /// Nothing: the controller stays idle after power-on.
        case none
    }

    /// The device's name, unique in the scenario.
    public var name: String
    /// The address it advertises and connects with; its kind says public or random.
    public var address: BluetoothAddress
    /// Position, heading, antenna, sensitivity, RSSI offset and route.
    public var description: DeviceDescription
    /// Transmit power at the antenna port in dBm.
    public var txPowerDBm: Double
    /// Who drives the controller.
    public var host: HostKind
    /// What the device advertises, when ``host`` is ``HostKind/scripted`` or ``HostKind/gatt``.
    public var advertising: ScenarioAdvertising?
    /// How the scripted scanner scans, when ``host`` is ``HostKind/scripted`` and the
    /// device listens instead of advertising.
    public var scanning: ScenarioScanning?
    /// What a scenario runner watches for with what the device hears (BLEScenarios);
    /// plain data to the world, which knows no beacons.
    public var observing: ScenarioObserver?
    /// The standard GATT services the device serves, by their `BLEProfiles` names
    /// (`heart-rate`, `battery`, `device-information`, ...), in order; empty for a device
    /// that serves none. The world stores the names only: the host that serves them checks
    /// them when it starts.
    public var gatt: [String] = []
    /// The device this one rides with, if any.
    public var carriedBy: ScenarioCarriage?
    /// When its scripted host starts (switching the device on, as far as the air is
    /// concerned).
    public var start: ScenarioDeviceStart = .at(0)
    /// The apps installed when the device is a simulated phone (the file's `apps`); empty
    /// for any other device. The phone's system (`BLEPhone`) runs them.
    public var apps: [ScenarioApp] = []
    /// The phone's iOS profile and settings (the file's `phone:`), when the device is a
    /// phone that names them; `nil` for today's iPhone with its defaults.
    public var phone: ScenarioPhone?
    /// The accessory program a host of the run's runs on this device (`program:
    /// notification-light`): a `host: external` device other than the phone. The world
    /// knows no programs; the run refuses unknown names.
    public var program: String?
    /// The fleet gateway this device is (the file's `gateway:`), if it is one.
    public var gateway: ScenarioGateway?
    /// What this device copies and replays (the file's `copies:`), if it is a copier.
    public var copying: ScenarioCopying?
    /// The attack this hostile device stages (the file's `attack:`), if it is one.
    public var attack: ScenarioAttack?
    /// What a GATT device's Security Manager brings to pairing (the file's `security:`);
    /// `nil`: its host's default, no input and no output, and it asks for no pairing.
    public var security: ScenarioSecurity?

    /// A device with every field; `host` follows from `gatt`, `advertising` and `scanning`
    /// when not given: ``HostKind/gatt`` for a device that serves GATT, else
    /// ``HostKind/scripted`` for one that advertises or scans, else ``HostKind/none``.
    public init(name: String, address: BluetoothAddress, description: DeviceDescription, txPowerDBm: Double = 0,
                host: HostKind? = nil, advertising: ScenarioAdvertising? = nil, scanning: ScenarioScanning? = nil,
                observing: ScenarioObserver? = nil, carriedBy: ScenarioCarriage? = nil, gatt: [String] = []) {
        self.name = name
        self.address = address
        self.description = description
        self.txPowerDBm = txPowerDBm
        self.host = host ?? (!gatt.isEmpty ? .gatt : advertising == nil && scanning == nil ? .none : .scripted)
        self.gatt = gatt
        self.advertising = advertising
        self.scanning = scanning
        self.observing = observing
        self.carriedBy = carriedBy
    }
}

/// When a scripted device starts: beacons in the field were switched on at different
/// moments, so their advertising events do not line up. Devices that all start at 0 with
/// the same interval stay within a few milliseconds of each other (advDelay drifts them
/// apart only slowly) and collide far more than real ones.
public enum ScenarioDeviceStart: Hashable, Sendable {
    /// This many seconds after the world starts.
    case at(Double)
    /// At a moment within the device's first advertising (or scan) interval drawn from
    /// the scenario's seed and the device's index: `startAt: random`.
    case randomInFirstInterval
}

/// A scripted action and when it happens.
public struct ScenarioTimedAction: Hashable, Sendable {
    /// Seconds of simulated time since the world started.
    public var atSeconds: Double
    /// What happens.
    public var action: ScenarioAction
    /// An action at a time.
    public init(atSeconds: Double, action: ScenarioAction) {
        self.atSeconds = atSeconds
        self.action = action
    }
    /// The time in the world's microseconds.
    public var time: Microseconds { Microseconds((atSeconds * 1_000_000).rounded()) }
}

/// What a scenario can make happen (DESIGN.md, "Faults on demand"). Devices are named.
public enum ScenarioAction: Hashable, Sendable {
    /// The device loses power: no radio, HCI packets dropped.
    case powerOff(String)
    /// Power returns; the controller starts from reset and a scripted host sets it up again.
    case powerOn(String)
    /// Power off and on at once.
    case powerCycle(String)
    /// Each packet between the two devices is lost with probability `rate` (0…1).
    case setPacketLoss(String, String, rate: Double)
    /// Nothing gets through between the two devices, or everything again.
    case blockLink(String, String, blocked: Bool)
    /// The scripted host disables advertising.
    case stopAdvertising(String)
    /// The scripted host enables advertising again.
    case startAdvertising(String)
    /// The device is carried to a new position.
    case moveTo(String, Vector3)
    /// The device (the person holding it) turns to face `degrees`, and stops facing where
    /// it walks.
    case turn(String, degrees: Double)
    /// Something happens to an app of a phone: the user opens, leaves or force-quits it,
    /// the system suspends or terminates it, it crashes or starts a background task.
    case app(String, app: String, ScenarioAppAction)
    /// Bluetooth is switched on or off in the phone's Settings.
    case bluetooth(String, on: Bool)
    /// The phone's screen goes off (the app on screen leaves it) or comes on (the lock
    /// screen: regions with `notifyEntryStateOnDisplay` report their state).
    case screen(String, on: Bool)
    /// The phone's cellular link goes down (an outage, a tunnel) or comes back: its apps'
    /// requests fail while it is down (docs/network.md).
    case network(String, on: Bool)
    /// A notification is posted, changed or removed on the phone (what ANCS publishes).
    case notification(String, ScenarioNotification)
    /// Airplane Mode goes on (the cellular link down, and Bluetooth off unless the phone
    /// keeps it on) or off.
    case airplaneMode(String, on: Bool)
    /// Control Center's Bluetooth button: off, apps' accessories disconnect and Core
    /// Bluetooth reports powered off while beacon regions go on.
    case controlCenterBluetooth(String, on: Bool)
    /// The phone restarts: its apps end, and with a passcode nothing is relaunched for
    /// Bluetooth until it is unlocked.
    case reboot(String)
    /// The user unlocks the phone (the first unlock after a restart matters).
    case unlock(String)
    /// The user turns an app's Precise Location on or off in Settings (iOS 14): its Core
    /// Location managers hear the new accuracy.
    case preciseLocation(String, app: String, on: Bool)

    /// The devices the action names.
    public var deviceNames: [String] {
        switch self {
        case let .powerOff(name), let .powerOn(name), let .powerCycle(name),
             let .stopAdvertising(name), let .startAdvertising(name), let .moveTo(name, _), let .turn(name, _),
             let .app(name, _, _), let .bluetooth(name, _), let .screen(name, _), let .network(name, _),
             let .notification(name, _), let .airplaneMode(name, _), let .controlCenterBluetooth(name, _),
             let .reboot(name), let .unlock(name), let .preciseLocation(name, _, _):
            return [name]
        case let .setPacketLoss(a, b, _), let .blockLink(a, b, _):
            return [a, b]
        }
    }
}

/// An app installed on a scenario's phone: what `BLEPhone`'s system needs to run it.
public struct ScenarioApp: Hashable, Sendable {
    /// Its name, unique on the phone.
    public var name: String
    /// Its background modes as an Info.plist names them (`bluetooth-central`,
    /// `bluetooth-peripheral`, `location`).
    public var modes: [String]
    /// Whether its managers use a restore identifier (state preservation).
    public var restoresState: Bool
    /// The identifiers of the phone's monitored regions (its `observe.monitor`) whose events
    /// go to this app; `nil`: all of them.
    public var regions: [String]?
    /// Whether the app's regions set `notifyEntryStateOnDisplay`: switching the screen on
    /// while inside one tells the app its state.
    public var notifyEntryStateOnDisplay: Bool
    /// The program the app runs, by name (`program: heart-rate-monitor`): code written for
    /// Apple platforms that a host on the phone runs (`ble sim run` knows its built-in
    /// programs; a program of the user's installs itself). `nil`: the app only hears its
    /// regions. The world knows no programs; whoever runs the phone refuses unknown names.
    public var program: String?
    /// What the phone's user answers when the app asks to post notifications
    /// (`notifications: deny`): one of ``notificationAnswers``, by default `allow`.
    public var notifications: String
    /// What the phone's user answers to the Bluetooth prompt of the app's first Core
    /// Bluetooth manager (`bluetooth: deny`): one of ``bluetoothAnswers``, by default `allow`.
    public var bluetooth: String
    /// The app's `NSBluetoothAlwaysUsageDescription`; `nil` when its Info.plist has none
    /// (`bluetoothUsageDescription: false`), and its first manager then gets it terminated.
    /// By default a description is present.
    public var bluetoothUsageDescription: String?
    /// The Precise Location switch of the app's location prompt (`preciseLocation: false`:
    /// the user turns it off when first allowing the app location, and its Core Location
    /// managers get reduced accuracy, iOS 14). Only an app that runs a program has managers;
    /// `true` by default.
    public var preciseLocation = true
    /// The location authorization of an app without a program (`location: whenInUse`), as
    /// Settings → Privacy → Location Services holds it: one of ``locationAuthorizations``,
    /// `always` by default, as the scenarios' monitoring needs. The phone routes the app's
    /// region events by it (`BLEPhone`'s `PhoneCore.locationRefusal(for:)`): When In Use,
    /// only while the app is on screen; denied or not determined, never.
    public var location = "always"

    /// The usage description an app of a file has unless the file says otherwise.
    public static let defaultBluetoothUsageDescription = "Uses Bluetooth to talk to accessories."

    /// An app with every field.
    public init(name: String, modes: [String] = [], restoresState: Bool = false, regions: [String]? = nil,
                notifyEntryStateOnDisplay: Bool = false, program: String? = nil, notifications: String = "allow",
                bluetooth: String = "allow", bluetoothUsageDescription: String? = ScenarioApp.defaultBluetoothUsageDescription) {
        self.name = name
        self.modes = modes
        self.restoresState = restoresState
        self.regions = regions
        self.notifyEntryStateOnDisplay = notifyEntryStateOnDisplay
        self.program = program
        self.notifications = notifications
        self.bluetooth = bluetooth
        self.bluetoothUsageDescription = bluetoothUsageDescription
    }

    /// The mode names a file may use.
    public static let modeNames = ["bluetooth-central", "bluetooth-peripheral", "location"]
    /// The answers a file may give to the app's notification prompt (`BLEPhone`'s
    /// `NotificationAuthorizationAnswer`).
    public static let notificationAnswers = ["allow", "deny", "undecided"]
    /// The answers a file may give to the app's Bluetooth prompt (`BLEPhone`'s
    /// `BluetoothAuthorizationAnswer`).
    public static let bluetoothAnswers = ["allow", "deny"]
    /// The location authorizations a file may give an app without a program (`BLEPhone`'s
    /// `LocationAuthorization`).
    public static let locationAuthorizations = ["always", "whenInUse", "denied", "notDetermined"]
}

/// What a scenario's `app` action does to an app.
public enum ScenarioAppAction: String, Hashable, Sendable, CaseIterable {
    /// The user opens it.
    case launch
    /// The user brings it to the screen.
    case foreground
    /// The user leaves it.
    case background
    /// The system suspends it now.
    case suspend
    /// The system terminates it.
    case terminate
    /// It crashes.
    case crash
    /// The user force-quits it.
    case forceQuit
    /// It starts a background task.
    case beginBackgroundTask
    /// It ends its background task.
    case endBackgroundTask
}
