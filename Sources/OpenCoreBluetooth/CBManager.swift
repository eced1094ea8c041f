import BLE
import BLETime
import Dispatch
import Foundation
import Synchronization

/// Whether a manager's Bluetooth is usable (Core Bluetooth's `CBManagerState`, Apple's raw
/// values).
public enum CBManagerState: Int, Sendable {
    /// Not known yet: a manager starts so and moves on asynchronously.
    case unknown = 0
    /// The connection to the controller was lost and is being restored.
    case resetting = 1
    /// There is no controller: the one `$SWIFTBLE_HCI` names could not be opened.
    case unsupported = 2
    /// The app may not use Bluetooth: on a simulated iPhone, the user refused the app's
    /// permission prompt (never for a program on no phone: Linux asks no permission).
    case unauthorized = 3
    /// Bluetooth is switched off in the simulated iPhone's Settings, or the controller went
    /// away (its transport closed).
    case poweredOff = 4
    /// The controller is up and ready.
    case poweredOn = 5
}

/// Whether the app may use Bluetooth (Core Bluetooth's `CBManagerAuthorization`). On a
/// simulated iPhone it is the app's, kept by the phone (docs/phone.md, "Bluetooth
/// permission"); a program on no phone asks no permission, so it is ``allowedAlways``.
public enum CBManagerAuthorization: Int, Sendable {
    /// The user has not been asked.
    case notDetermined = 0
    /// Restricted, e.g. by a policy.
    case restricted = 1
    /// The user denied it.
    case denied = 2
    /// Always allowed: the only value for a program on no phone.
    case allowedAlways = 3

    /// The phone's authorization of an app under Core Bluetooth's name.
    init(_ authorization: BluetoothAuthorization) {
        switch authorization {
        case .notDetermined: self = .notDetermined
        case .denied: self = .denied
        case .allowedAlways: self = .allowedAlways
        }
    }
}

/// What the central and peripheral managers share (Core Bluetooth's `CBManager`): their
/// ``state``, authorization, and the queue their delegate is called on.
///
/// A manager starts ``CBManagerState/unknown`` and moves to ``CBManagerState/poweredOn``
/// once its controller is open (the delegate's `…DidUpdateState`), to
/// ``CBManagerState/unsupported`` when none opens, to ``CBManagerState/poweredOff`` when
/// it goes away.
///
/// **Threads.** A manager runs on the dispatch queue given to its initializer (the main
/// queue when `nil`): its own work and every delegate call happen there, one at a time, and
/// the manager, its peripherals, centrals and attributes are to be used from that queue,
/// as on Apple platforms. So they are `@unchecked Sendable`: the queue, not the compiler,
/// keeps them consistent. ``state`` is readable from any thread.
open class CBManager: NSObject, @unchecked Sendable {
    // @unchecked Sendable: used only on its manager's queue (CBManager, "Threads"), as Core Bluetooth's objects are.
    let currentState = Mutex(CBManagerState.unknown)
    /// Where the manager's work and its delegate calls run: the main actor, or a
    /// ``DelegateQueue`` on the queue the app gave.
    let isolation: any Actor
    /// The app's authorization when the manager was made.
    let madeAuthorization: CBManagerAuthorization

    init(queue: DispatchQueue?, authorization: CBManagerAuthorization = .allowedAlways) {
        isolation = DelegateQueue.isolation(for: queue)
        madeAuthorization = authorization
        super.init()
    }

    /// Whether Bluetooth is usable now; readable from any thread.
    open var state: CBManagerState { currentState.withLock { $0 } }

    /// Whether the app may use Bluetooth (iOS 13.1's class property): in the launch entry
    /// point of an app of a simulated iPhone, that app's authorization
    /// (``CBManagerAuthorization/notDetermined`` until its first manager asks the user);
    /// anywhere else ``CBManagerAuthorization/allowedAlways``, as no app is known there
    /// (ask a manager, ``authorization``).
    open class var authorization: CBManagerAuthorization {
        guard let app = PhoneApp.launching else { return .allowedAlways }
        return CBManagerAuthorization(app.phone.bluetoothAuthorization(of: app.name))
    }

    /// The authorization of the manager's app (the instance form Core Bluetooth
    /// deprecates): what the user answered when the app's first manager asked;
    /// ``CBManagerAuthorization/allowedAlways`` on no phone.
    open var authorization: CBManagerAuthorization { madeAuthorization }

    /// What the phone says to a new manager of `app` (Apple, `CBManagerAuthorization`,
    /// `NSBluetoothAlwaysUsageDescription`): the app's authorization, the permission prompt
    /// shown the first time; `nil` when the app was terminated for lacking the usage
    /// description. Always allowed on no phone.
    static func admit(_ app: PhoneApp?) -> CBManagerAuthorization? {
        guard let app else { return .allowedAlways }
        return app.phone.bluetoothManagerMade(by: app.name).map(CBManagerAuthorization.init)
    }

    /// The "Turn On Bluetooth" alert iOS shows when a manager asking for it
    /// (`CBCentralManagerOptionShowPowerAlertKey`, `CBPeripheralManagerOptionShowPowerAlertKey`)
    /// is made while Bluetooth is switched off, on the phone's timeline.
    static func showPowerAlertIfOff(_ app: PhoneApp?, asked: Bool) {
        guard asked, let app, !app.phone.isBluetoothAvailable else { return }
        app.phone.systemAlert("Turn On Bluetooth to Allow “\(app.name)” to Connect to Accessories", for: app.name)
    }

    /// Logs a call made while the state is not powered on, as Core Bluetooth does on iOS
    /// ("API MISUSE: … can only accept this command while in the powered on state"); the
    /// call does nothing.
    func logMisuse(_ command: String) {
        FileHandle.standardError.write(Data("OpenCoreBluetooth: API MISUSE: \(type(of: self)) can only accept \(command) while in the powered on state (state \(state))\n".utf8))
    }

    /// Sets the state, returning whether it changed (so the delegate is told only then).
    func changeState(to newState: CBManagerState) -> Bool {
        currentState.withLock { state in
            guard state != newState else { return false }
            state = newState
            return true
        }
    }

    /// Runs `body` on the manager's queue (see ``hop(to:_:)``).
    func onQueue<T: Sendable>(_ body: @Sendable () -> T) async -> T {
        await hop(to: isolation, body)
    }
}
