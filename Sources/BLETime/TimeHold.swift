import Dispatch
import Synchronization

/// A promise that a simulation's clock stays where it is until it is released
/// (``Simulation/holdTime()``): the simulation keeps running the work it is given, but wakes
/// no sleeper, so work under way on another thread — a request Foundation hands over on a
/// queue of its own — happens at the virtual time it was started, however slow that thread is.
///
/// Releasing twice does nothing; a hold that is dropped unreleased releases itself, so a
/// forgotten hold cannot stop a simulation's clock for good.
public final class TimeHold: Sendable {
    private weak let simulation: Simulation?
    private let released = Atomic(false)

    init(simulation: Simulation) {
        self.simulation = simulation
    }

    /// Lets the clock move again (once every other hold is released too).
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        simulation?.releaseHold()
    }

    /// Releases the hold after `seconds` of wall-clock time at the latest: for work outside
    /// that may never report back (a queue an app blocks), so the clock cannot stop for good.
    public func release(afterAtMost seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in release() }
    }

    deinit {
        if !released.load(ordering: .acquiring) { simulation?.releaseHold() }
    }
}
