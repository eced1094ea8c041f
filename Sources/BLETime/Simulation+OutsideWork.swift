import Dispatch

/// Work outside the simulation's thread that the timeline waits for: a block on a dispatch
/// queue, and holds on the clock.
extension Simulation {
    /// Runs `work` on `queue` as part of the simulation: the simulation runs nothing else
    /// until it returns, and tasks it starts or resumes join the simulation. This is how a
    /// compatibility layer delivers delegate calls on the app's queue without losing
    /// determinism.
    public func dispatch(to queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        lock.withLock { state.external += 1 }
        queue.async { [self] in
            // Tasks the block starts carry the simulation as theirs (a task-local bound
            // outside any task is copied into the tasks started there).
            SimulationThread.inside(self) { Simulation.$ambient.withValue(self) { work() } }
            lock.withLock {
                state.external -= 1
                lock.signal()
            }
        }
    }

    /// Keeps the clock still until the returned hold is released (``TimeHold``). Work keeps
    /// running; only sleepers wait.
    public func holdTime() -> TimeHold {
        lock.withLock { state.timeHolds += 1 }
        return TimeHold(simulation: self)
    }

    /// One hold fewer; the main queue must settle again before time moves, since work the
    /// holder waited for may have reached it meanwhile.
    func releaseHold() {
        lock.withLock {
            state.timeHolds -= 1
            state.mainQueueSettled = false
            lock.signal()
        }
    }
}
