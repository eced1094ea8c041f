import Dispatch

/// Runs the tasks of in-process servers that a simulated phone's requests reach, on
/// Dispatch's threads rather than on Swift's cooperative pool.
///
/// While a server works the simulation waits for it, holding virtual time still, and gives up
/// after ``SimulatedPhone/serverPatience`` of real time. The cooperative pool has one thread
/// per core; on a two-core machine two tasks that block (a test that waits for a child
/// process, a long synchronous computation) leave no thread for the server's task, which
/// then cannot start before that patience runs out. Dispatch adds threads when its threads
/// block, so a server's task preferring this executor runs whatever else is blocked.
final class ServerTaskExecutor: TaskExecutor {
    /// The one executor all simulated phones' servers share.
    static let shared = ServerTaskExecutor()

    /// A concurrent queue on Dispatch's global threads, marked so that code can tell it
    /// runs there (``isCurrent``).
    private let queue = DispatchQueue(label: "SwiftBLE.SimulatedPhone.serverTasks", attributes: .concurrent)
    /// The mark: its value is this executor's queue label.
    private static let mark = DispatchSpecificKey<String>()

    private init() {
        queue.setSpecific(key: Self.mark, value: queue.label)
    }

    /// Whether the calling code runs on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.mark) == queue.label }

    /// Runs `job` on the executor's queue.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
