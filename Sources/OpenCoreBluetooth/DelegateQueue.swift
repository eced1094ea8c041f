import Dispatch

/// Runs Swift concurrency jobs on a dispatch queue, in the order they arrive: the executor
/// behind ``DelegateQueue``. The queue should be serial (Core Bluetooth asks the same of
/// the queue given to a manager); a concurrent queue would run two jobs of one actor at once.
final class DispatchQueueExecutor: SerialExecutor, @unchecked Sendable {
    /// Where the jobs run.
    let queue: DispatchQueue

    init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
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
        return DelegateQueue(queue ?? DispatchQueue.main)
    }
}

/// Starts `work` isolated to `isolation` (a manager's ``CBManager/isolation``): it and every
/// async call it makes in this module run on the manager's queue, each suspension resuming
/// there (the module runs nonisolated async code on its caller's executor, SE-0461).
@discardableResult
func startTask(on isolation: any Actor, _ work: @escaping @Sendable (isolated any Actor) async -> Void) -> Task<Void, Never> {
    dbg("startTask")
    return Task { dbg("task body"); await work(isolation) }
}
