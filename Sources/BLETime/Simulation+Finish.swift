/// Ending a simulation from async code without blocking a thread.
extension Simulation {
    /// As ``shutdown()``, but the caller suspends instead of blocking its thread until the
    /// simulation's thread has ended: for async code, whose threads Swift's cooperative pool
    /// has few of (one per core), so that a test or a command that ends a simulation keeps
    /// the pool free for the work the end waits for.
    public func finish() async {
        guard SimulationThread.current !== self else {
            shutdown()
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = lock.withLock { () -> Bool in
                if state.stopped { return true }
                state.finishWaiters.append(continuation)
                state.stopping = true
                lock.signal()
                return false
            }
            if ended {
                // The thread may still be on its last steps; they need no caller's thread.
                continuation.resume()
            }
        }
    }
}
