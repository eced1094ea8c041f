import BLEHost
import Synchronization

/// Counts the notification bench's arrivals as the central's host reports them
/// (``BLEHost/Host/handleGATTEvents(with:)``, called on the host's isolation), and wakes
/// the bench once all have come or it gives up.
final class NotificationTally: Sendable {
    private struct State {
        var received = 0
        var inOrder = 0
        var expected = 0
        var done = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private let handle: UInt16
    private let size: Int
    private let count: Int

    /// A tally of `count` notifications of `size` octets for attribute `handle`.
    init(handle: UInt16, size: Int, count: Int) {
        self.handle = handle
        self.size = size
        self.count = count
    }

    /// Counts `event` if it is a notification of the bench's value: in order when its
    /// sequence number follows the previous one's, the first being 0.
    func record(_ event: HostGATTEvent) {
        guard case let .notification(_, handle, value) = event, handle == self.handle else { return }
        let sequence = BenchGATTService.sequence(of: value, size: size)
        let woken = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.done else { return nil }
            state.received += 1
            if let sequence {
                if sequence == state.expected { state.inOrder += 1 }
                state.expected = sequence + 1
            }
            return state.received == count ? finish(&state) : nil
        }
        woken?.resume()
    }

    /// Returns once every notification has come, or ``stop()`` was called.
    func waitUntilDone() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.done { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Stops counting (the watchdog gave up): the bench reports what came.
    func stop() {
        state.withLock { finish(&$0) }?.resume()
    }

    /// What came: notifications counted and those in order.
    var counts: (received: Int, inOrder: Int) {
        state.withLock { ($0.received, $0.inOrder) }
    }

    private func finish(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        state.done = true
        defer { state.waiter = nil }
        return state.waiter
    }
}

