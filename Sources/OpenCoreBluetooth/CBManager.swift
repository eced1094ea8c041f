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
    /// The app may not use Bluetooth (never on Linux: no permission is asked).
    case unauthorized = 3
    /// The controller went away (its transport closed).
    case poweredOff = 4
    /// The controller is up and ready.
    case poweredOn = 5
}

/// Whether the app may use Bluetooth (Core Bluetooth's `CBManagerAuthorization`). Linux asks
/// no permission, so it is always ``allowedAlways``.
public enum CBManagerAuthorization: Int, Sendable {
    /// The user has not been asked.
    case notDetermined = 0
    /// Restricted, e.g. by a policy.
    case restricted = 1
    /// The user denied it.
    case denied = 2
    /// Always allowed: the only value on Linux.
    case allowedAlways = 3
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

    init(queue: DispatchQueue?) {
        isolation = DelegateQueue.isolation(for: queue)
        super.init()
    }

    /// Whether Bluetooth is usable now; readable from any thread.
    open var state: CBManagerState { currentState.withLock { $0 } }

    /// ``CBManagerAuthorization/allowedAlways``: Linux asks no permission.
    open class var authorization: CBManagerAuthorization { .allowedAlways }

    /// ``CBManagerAuthorization/allowedAlways`` (the instance form Core Bluetooth deprecates).
    open var authorization: CBManagerAuthorization { .allowedAlways }

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
