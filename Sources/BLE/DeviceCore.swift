import BLEHost
import Synchronization

/// What every part of a ``BLEDevice`` shares: the host, and whether the device was closed
/// (which turns the host's "transport closed" into ``BLEError/closed``).
final class DeviceCore: Sendable {
    let host: BLEHost.Host
    /// The one reader of the host's GATT events.
    let gatt: GATTDispatcher
    /// Pairing options, handlers and bonds.
    let security: DeviceSecurity
    private let closing = Mutex(false)

    init(host: BLEHost.Host, bonds: DeviceBonds) {
        self.host = host
        gatt = GATTDispatcher(host: host, bonds: bonds)
        security = DeviceSecurity(bonds: bonds)
    }

    /// Whether ``BLEDevice/close()`` was called.
    var isClosed: Bool { closing.withLock { $0 } }

    /// Marks the device closed; `true` the first time.
    func markClosed() -> Bool {
        closing.withLock { closed in
            defer { closed = true }
            return !closed
        }
    }

    /// The front door's error for `error`.
    func translate(_ error: any Error) -> BLEError {
        BLEError(error, closed: isClosed)
    }
}
