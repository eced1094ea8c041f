import BLETime
import Dispatch

/// Runs Swift concurrency jobs on a dispatch queue, in the order they arrive: the executor
/// behind ``DelegateQueue``. The queue should be serial (Core Bluetooth asks the same of
/// the queue given to a manager); a concurrent queue would run two jobs of one actor at once.
final class DispatchQueueExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: its one stored property, a DispatchQueue, is thread-safe.
    /// Where the jobs run.
    let queue: DispatchQueue

    init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        // From simulated code, the queue's work is part of the simulation's timeline: the
        // simulation waits for it, and what it starts stays in the simulation.
        if let simulation = Simulation.current {
            simulation.dispatch(to: queue) { job.runSynchronously(on: executor) }
        } else {
            queue.async { job.runSynchronously(on: executor) }
        }
    }

    /// Lets `assumeIsolated` and the runtime's isolation checks pass on the queue itself.
    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

/// The actor of a manager made with a dispatch queue (`init(delegate:queue:)`): its
/// executor is the queue, so the manager's own work and every call of its delegate run
/// there, one at a time, as Core Bluetooth delivers them.
actor DelegateQueue {
    private let executor: DispatchQueueExecutor

    init(_ queue: DispatchQueue) {
        executor = DispatchQueueExecutor(queue)
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// The actor a manager given `queue` runs on: the main actor for `nil` or the main
    /// queue (so main-actor code may be the delegate), else a ``DelegateQueue`` on `queue`.
    static func isolation(for queue: DispatchQueue?) -> any Actor {
        // `DispatchQueue.main` is a new wrapper object at each use, so the label tells.
        guard let queue, queue.label != DispatchQueue.main.label else { return MainActor.shared }
        return DelegateQueue(queue)
    }
}

/// Runs `body` on `isolation`'s executor (a manager's queue) and returns what it returns.
///
/// The managers' async work (waiting on the controller, the link, a scan) runs on Swift's
/// global executor; each step that reads or changes a manager's, peripheral's or
/// attribute's state, or calls a delegate, is a synchronous body hopped onto the queue this
/// way, so all of that happens on the queue, one body at a time.
func runOnQueue<T: Sendable>(_ isolation: isolated any Actor, _ body: @Sendable () -> T) -> T {
    body()
}

/// Runs `body` on `isolation`'s executor (a manager's queue, or the main actor) and returns
/// what it returns.
///
/// From simulated code the hop carries the simulation as the task's executor preference, so
/// the task comes back into the simulation afterwards. Without it, a task that has no
/// preference of its own (a `Task {}` started in simulated code) would be lost to the
/// simulation when it leaves the main actor: the runtime enqueues that hop on Swift's global
/// executor with no task current, from the thread that drains the main queue, so nothing says
/// where the job belongs; it would run beside the simulation while simulated time moved on.
func hop<T: Sendable>(to isolation: any Actor, _ body: @Sendable () -> T) async -> T {
    guard let simulation = Simulation.current else { return await runOnQueue(isolation, body) }
    return await withTaskExecutorPreference(simulation) { await runOnQueue(isolation, body) }
}
