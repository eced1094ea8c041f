import Synchronization

/// The first of several results, handed to one waiter: what ``withTimeout(_:_:)`` races
/// the work and its timer for.
public final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<Result<T, any Error>, Never>?
    }

    private let state = Mutex(State())

    /// An outcome nobody has settled.
    public init() {}

    /// Settles the outcome with `result` unless it is settled already.
    public func settle(_ result: Result<T, any Error>) {
        let waiter: CheckedContinuation<Result<T, any Error>, Never>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// Waits for the first result.
    public func value() async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            let ready: Result<T, any Error>? = state.withLock { state in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
