import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A task executor (SE-0417) that runs every job on one thread of its own, in the order
/// the jobs were enqueued.
///
/// Give it to a ``Host`` (its `executor:`) and run the app's tasks with the same
/// preference (`withTaskExecutorPreference(_:operation:)`, `Task(executorPreference:)`):
/// the host's reader, writer and timer tasks, the host actor's turns and the app's code
/// then all run on this thread, one after another, as on an event loop. A packet handed
/// from one to the next is a job put at the back of a queue on the same thread, not a
/// wake-up of another thread through the kernel; only work that arrives from other
/// threads (a timer, a socket, a task without the preference) wakes it. That is what
/// makes a busy in-process link fast (the ideal bench world); the default, the global
/// concurrent executor, spreads work over the machine's cores instead.
///
/// A preference is not a requirement: the host is a default actor, and a turn it takes
/// while a caller without the preference holds it runs on that caller's thread. Code on
/// the thread must not block it (no semaphores waiting for other tasks).
///
/// The thread lives as long as the executor; ``shutdown()`` ends it once the jobs
/// queued so far have run.
public final class SingleThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: every stored property is either immutable after init or the Mutex; the
    // thread handle is written once, before any job can be enqueued.

    private struct Queue {
        var jobs: [UnownedJob] = []
        var sleeping = false
        var stopping = false
    }

    private let queue = Mutex(Queue())
    /// Jobs enqueued so far: what the idle thread watches, so looking for work does not
    /// take the queue's lock (and bounce it between the cores) on every look.
    private let enqueued = Atomic<Int>(0)
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let thread = Mutex<pthread_t?>(nil)
    /// The thread's name.
    public let name: String
    /// How many times the idle thread looks for a job before it sleeps (0, the default:
    /// it sleeps at once). Looking costs the thread's core while it waits; sleeping costs
    /// whoever enqueues the next job a system call to wake it. A thread fed by a busy
    /// in-process link saves those calls by looking a little first.
    public let spinsBeforeSleeping: Int

    /// Starts the thread. It holds the executor until ``shutdown()``. `name` says what
    /// the executor is for, in logs and the bench's figures.
    /// - Throws: ``SingleThreadExecutorError`` when the system refuses a new thread.
    public init(name: String = "ble-executor", spinsBeforeSleeping: Int = 0) throws(SingleThreadExecutorError) {
        self.name = name
        self.spinsBeforeSleeping = spinsBeforeSleeping
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let executor = Unmanaged<SingleThreadExecutor>.fromOpaque(context!).takeRetainedValue()
            executor.run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<SingleThreadExecutor>.fromOpaque(context).release()
            throw SingleThreadExecutorError(name: name, code: created)
        }
        pthread_detach(thread)
        self.thread.withLock { $0 = thread }
    }

    /// Queues `job`; wakes the thread if it sleeps.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let sleeping = queue.withLock { queue -> Bool in
            queue.jobs.append(unowned)
            defer { queue.sleeping = false }
            return queue.sleeping
        }
        enqueued.wrappingAdd(1, ordering: .relaxed)
        if sleeping { wake.signal() }
    }

    /// Lets the jobs queued so far run, then ends the thread. Jobs enqueued afterwards are
    /// not run: call it once nothing uses the executor any more. Waits for the thread to
    /// end, unless called on it (code without a preference may run there too, e.g. after
    /// leaving an actor the thread was running).
    public func shutdown() {
        let sleeping = queue.withLock { queue -> Bool in
            queue.stopping = true
            defer { queue.sleeping = false }
            return queue.sleeping
        }
        if sleeping { wake.signal() }
        guard !isCurrentThread else { return }
        stopped.wait()
        stopped.signal()  // for the next caller: shutting down twice is harmless
    }

    /// Whether the caller runs on the executor's thread.
    public var isCurrentThread: Bool {
        thread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private func run() {
        let executor = asUnownedTaskExecutor()
        var batch: [UnownedJob] = []
        while true {
            let stop = queue.withLock { queue -> Bool in
                swap(&batch, &queue.jobs)
                return batch.isEmpty && queue.stopping
            }
            if stop { break }
            guard batch.isEmpty else {
                for job in batch { job.runSynchronously(on: executor) }
                batch.removeAll(keepingCapacity: true)
                continue
            }
            if jobArrived(within: spinsBeforeSleeping) { continue }
            let sleep = queue.withLock { queue -> Bool in
                guard queue.jobs.isEmpty, !queue.stopping else { return false }
                queue.sleeping = true
                return true
            }
            if sleep { wake.wait() }
        }
        stopped.signal()
    }

    /// Whether a job was enqueued while the idle thread watched for `spins` rounds.
    /// A job enqueued before the first look is not missed: the thread checks the queue
    /// under its lock before it sleeps.
    private func jobArrived(within spins: Int) -> Bool {
        guard spins > 0 else { return false }
        let start = enqueued.load(ordering: .relaxed)
        for _ in 0 ..< spins where enqueued.load(ordering: .relaxed) != start { return true }
        return false
    }
}

/// The system refused the thread of a ``SingleThreadExecutor`` (`pthread_create` failed,
/// e.g. EAGAIN when the process is at its thread limit).
public struct SingleThreadExecutorError: Error, CustomStringConvertible {
    /// The executor's name.
    public var name: String
    /// The error number `pthread_create` returned.
    public var code: Int32

    public var description: String {
        "cannot start the thread of executor \(name): pthread_create returned \(code) (EAGAIN = too many threads)"
    }
}
