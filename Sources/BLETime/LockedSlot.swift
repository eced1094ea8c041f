import Synchronization

/// One optional value shared between tasks behind a lock.
final class LockedSlot<Value: Sendable>: Sendable {
    private let storage: Mutex<Value?>

    init(_ value: Value?) { storage = Mutex(value) }

    var value: Value? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    func clear() { storage.withLock { $0 = nil } }
}
