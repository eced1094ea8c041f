import Dispatch

/// The main-queue probes and the pacing to the wall clock: the parts of choosing the next
/// step that look outside the simulation's thread. Called under ``Simulation/lock``.
extension Simulation {
    /// Sends a block through the main queue (under the lock); when it comes back with no
    /// work submitted meanwhile, every main-actor job enqueued before it has run and left
    /// nothing for the simulation: the main queue has settled.
    func probeMainQueue() {
        guard !state.probing else { return }
        state.probing = true
        let sent = state.submitted
        DispatchQueue.main.async { [self] in
            lock.withLock {
                state.probing = false
                state.mainQueueSettled = state.submitted == sent
                lock.signal()
            }
        }
    }

    func earliestSleeper() -> Int? {
        var best: Int?
        for index in state.sleepers.indices {
            guard let current = best else {
                best = index
                continue
            }
            let candidate = state.sleepers[index], chosen = state.sleepers[current]
            if candidate.deadline < chosen.deadline || (candidate.deadline == chosen.deadline && candidate.sequence < chosen.sequence) {
                best = index
            }
        }
        return best
    }

    /// At a finite speed: the wall-clock time at which simulated `time` is due.
    func wallTime(of simulated: Int64) -> Int64? {
        guard speed.isFinite else { return nil }
        let origin = pacingOrigin()
        return origin.wall + Int64((Double(simulated - origin.simulated) / speed).rounded(.up))
    }

    func pacingOrigin() -> (wall: Int64, simulated: Int64) {
        if let origin = state.pacingOrigin { return origin }
        let origin = (wall: WallClock.monotonicMicroseconds(), simulated: time.load(ordering: .relaxed))
        state.pacingOrigin = origin
        return origin
    }

    /// At a finite speed, work that arrived from outside happens at the simulated time the
    /// wall clock says, but never past a sleeper that is due first.
    func catchUpWithWallClock() {
        guard speed.isFinite else { return }
        let origin = pacingOrigin()
        var target = origin.simulated + Int64(Double(WallClock.monotonicMicroseconds() - origin.wall) * speed)
        if let index = earliestSleeper() { target = min(target, state.sleepers[index].deadline) }
        if target > time.load(ordering: .relaxed) { time.store(target, ordering: .releasing) }
    }
}
