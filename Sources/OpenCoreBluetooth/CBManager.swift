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
/// ``state`` and authorization.
///
/// A manager starts ``CBManagerState/unknown`` and moves to ``CBManagerState/poweredOn``
/// once its controller is open (the delegate's `…DidUpdateState` on the main queue), to
/// ``CBManagerState/unsupported`` when none opens, to ``CBManagerState/poweredOff`` when
/// it goes away.
@MainActor
open class CBManager: NSObject {
    nonisolated let currentState = Mutex(CBManagerState.unknown)

    nonisolated override init() {
        super.init()
    }

    /// Whether Bluetooth is usable now; readable from any thread.
    nonisolated open var state: CBManagerState { currentState.withLock { $0 } }

    /// ``CBManagerAuthorization/allowedAlways``: Linux asks no permission.
    nonisolated open class var authorization: CBManagerAuthorization { .allowedAlways }

    /// ``CBManagerAuthorization/allowedAlways`` (the instance form Core Bluetooth deprecates).
    nonisolated open var authorization: CBManagerAuthorization { .allowedAlways }

    /// Sets the state, returning whether it changed (so the delegate is told only then).
    nonisolated func changeState(to newState: CBManagerState) -> Bool {
        currentState.withLock { state in
            guard state != newState else { return false }
            state = newState
            return true
        }
    }
}
