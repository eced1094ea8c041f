import Dispatch
import Synchronization

/// Keeps simulated time still while a job leaves the main actor for Swift's global executor,
/// until that job has run: a main-actor app's call into a nonisolated async function
/// (`URLSession.data(for:)`, on a phone) happens at the virtual time the app made it.
///
/// The concurrency runtime clears the current task before it enqueues a task that hops off
/// an actor (`swift_task_switch`), so ``GlobalEnqueueRouting`` cannot tell which simulation
/// such a job belongs to: on a simulation's own thread the thread says, but the main actor's
/// jobs run on the main queue, shared by every simulation in the process. Checked with a
/// 40-line program on Swift 6.3: the global hook sees no current task for the hop, and the
/// runtime's main-executor hook is not consulted at all. So a job enqueued from the main
/// queue with no task to name its simulation holds the clock of every live simulation that
/// waits for the main queue (``Simulation/waitsForMainQueue``: those whose apps run on the
/// main actor) and runs on a Dispatch worker; once it has run its first part — where its own
/// task makes whatever it starts join its simulation again (``Simulation/current``) — the
/// clocks move on. Holding a simulation the job does not belong to only delays that
/// simulation in wall-clock time: its virtual times and results do not change.
enum MainActorHops {
    /// A simulation that waits for the main queue, held weakly: one that is gone holds nothing.
    private struct Waiting {
        weak var simulation: Simulation?
    }

    /// Marks the main queue, so the hook can tell a job enqueued from it.
    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    private static let waiting = Mutex<[Waiting]>([])

    /// Marks the main queue (once per process, with the routing's installation).
    static func markMainQueue() {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    }

    /// Counts `simulation` among those whose clocks a main-actor hop holds.
    static func register(_ simulation: Simulation) {
        waiting.withLock { waiting in
            waiting.removeAll { $0.simulation == nil }
            waiting.append(Waiting(simulation: simulation))
        }
    }

    /// Holds on the clock of every live simulation that waits for the main queue, when the
    /// caller runs on the main queue and there is such a simulation; nil otherwise.
    static func holdsForHopFromMainQueue() -> [TimeHold]? {
        guard DispatchQueue.getSpecific(key: mainQueueKey) == true else { return nil }
        let simulations = waiting.withLock { waiting in waiting.compactMap(\.simulation) }
        let holds = simulations.filter { !$0.isShutDown }.map { $0.holdTime() }
        // A job that blocks its thread (waiting for a simulation it holds) must not stop
        // those clocks for good: five seconds of wall-clock time at most, as for Foundation's queues.
        for hold in holds { hold.release(afterAtMost: 5) }
        return holds.isEmpty ? nil : holds
    }

    /// Runs `job` (bound for the global executor) on a Dispatch worker, then releases `holds`.
    static func run(_ job: UnownedJob, releasing holds: [TimeHold]) {
        DispatchQueue.global().async {
            job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor())
            for hold in holds { hold.release() }
        }
    }
}
