import BLEHost
import Synchronization

/// Runs `work` in a task of its own and returns when it finished or `limit` passed on
/// `clock` (the host's), whichever comes first; the work is left running in the second case.
func firstToFinish(within limit: Duration, on clock: any StackClock, _ work: @escaping @Sendable () async -> Void) async {
    let signal = OneShotSignal()
    Task {
        await work()
        signal.fire()
    }
    let timer = Task {
        // The time limit itself (a timer): the work's own end cancels it.
        try? await clock.sleep(for: limit)
        signal.fire()
    }
    await signal.wait()
    timer.cancel()
}

/// A signal fired once, by whichever of several tasks comes first, and awaited by one.
final class OneShotSignal: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>)
        case fired
    }

    private let state = Mutex(State.idle)

    /// Fires the signal; later calls do nothing.
    func fire() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            defer { state = .fired }
            if case let .waiting(continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }

    /// Returns once the signal fired (at once if it already has).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state in
                if case .fired = state { return true }
                state = .waiting(continuation)
                return false
            }
            if fired { continuation.resume() }
        }
    }
}
