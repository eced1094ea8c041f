/// A ``Simulation``'s clock: microseconds of simulated time since the simulation started.
/// Sleeping on it registers the task with the simulation, which wakes it when everything
/// else in the simulation waits and no sleeper is due earlier (``Simulation``).
public struct VirtualClock: StackClock {
    /// The simulation that keeps this clock.
    public let simulation: Simulation

    /// The clock of `simulation`.
    public init(simulation: Simulation) { self.simulation = simulation }

    public var microseconds: Int64 { simulation.now }

    public func sleep(untilMicroseconds deadline: Int64) async throws {
        try await simulation.sleep(untilMicroseconds: deadline)
    }
}

extension Simulation {
    /// Suspends the calling task until simulated time `deadline`; see ``VirtualClock``.
    /// A deadline already passed still waits for the simulation to be idle, so whatever is
    /// under way settles first.
    /// - Throws: `CancellationError` when the task is cancelled first, or the simulation
    ///   shuts down.
    func sleep(untilMicroseconds deadline: Int64) async throws {
        let sequence = lock.withLock { () -> UInt64? in
            guard !state.stopped else { return nil }
            state.nextSequence += 1
            state.unregistered.insert(state.nextSequence)
            return state.nextSequence
        }
        guard let sequence else { throw CancellationError() }
        let home = Simulation.current
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let refused = lock.withLock { () -> Bool in
                    state.unregistered.remove(sequence)
                    if state.cancelledEarly.remove(sequence) != nil || state.stopped { return true }
                    state.sleepers.append(Sleeper(deadline: deadline, sequence: sequence, continuation: continuation,
                                                   home: home))
                    lock.signal()
                    return false
                }
                if refused { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            cancelSleep(sequence)
        }
    }

    /// Wakes sleep `sequence` with `CancellationError`, on the simulation's thread, so the
    /// woken task stays in the simulation whoever cancelled it.
    private func cancelSleep(_ sequence: UInt64) {
        let sleeper = lock.withLock { () -> Sleeper? in
            if let index = state.sleepers.firstIndex(where: { $0.sequence == sequence }) {
                return state.sleepers.remove(at: index)
            }
            if state.unregistered.contains(sequence) { state.cancelledEarly.insert(sequence) }
            return nil
        }
        guard let sleeper else { return }
        execute { sleeper.wake(throwing: CancellationError()) }
    }

    /// How many tasks sleep on the clock now (for tests and diagnostics).
    public var sleeperCount: Int { lock.withLock { state.sleepers.count } }
}
