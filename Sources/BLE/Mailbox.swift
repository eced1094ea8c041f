import Synchronization

/// A queue that many tasks may wait on: each element goes to exactly one waiter, in the
/// order put; after ``finish()`` the waiters get `nil` once the queue is empty. A waiting
/// task that is cancelled gets `nil` and leaves the queue untouched.
///
/// It stands where an `AsyncStream` would be iterated by more than one task (incoming
/// connections, incoming channels): a stream has one consumer, an accept queue has many.
final class Mailbox<Element: Sendable>: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Element?, Never>
    }

    private struct State {
        var buffer: [Element] = []
        var head = 0
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
        var finished = false

        mutating func take() -> Element? {
            guard head < buffer.count else { return nil }
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            }
            return element
        }
    }

    private let state = Mutex(State())

    /// Hands `element` to the longest-waiting task, or keeps it for the next one.
    /// - Returns: `false` if the queue was finished and the element dropped.
    @discardableResult
    func put(_ element: Element) -> Bool {
        let outcome: (accepted: Bool, waiter: Waiter?) = state.withLock { state in
            guard !state.finished else { return (false, nil) }
            if !state.waiters.isEmpty { return (true, state.waiters.removeFirst()) }
            state.buffer.append(element)
            return (true, nil)
        }
        outcome.waiter?.continuation.resume(returning: element)
        return outcome.accepted
    }

    /// Ends the queue: waiters get `nil`; elements already queued are still handed out.
    func finish() {
        let waiters = state.withLock { state in
            state.finished = true
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    /// The next element, waiting for one; `nil` once finished and empty, or when the task
    /// is cancelled.
    func next() async -> Element? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                // The cancellation flag is read under the lock, so a cancel either is seen
                // here or finds the waiter registered below.
                let ready: Element?? = state.withLock { state in
                    if let element = state.take() { return .some(element) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: nil)
        }
    }
}
