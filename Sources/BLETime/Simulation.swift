import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Virtual time for a whole simulated stack: a task executor (SE-0417) with one thread of
/// its own, and the clock that thread keeps (DESIGN.md, "Determinism, one clock").
///
/// Everything in a simulation — the world's runner, the hosts, the front door, an app's
/// tasks — runs on the simulation's thread, one job at a time, in the order the jobs were
/// enqueued. Time moves only when that thread has nothing to run: the simulation then wakes
/// the earliest sleeper on its ``clock`` (ties in the order they went to sleep) and sets the
/// time to its deadline. A host answers a packet in no simulated time, a world runs its next
/// event once every host has settled, and a whole scenario runs as fast as the processor
/// allows with the same timeline on an idle and on a loaded machine.
///
/// How work gets onto the thread:
/// - tasks created with this executor as their preference (`Task(executorPreference:)`,
///   ``run(_:)``) and their child tasks;
/// - any job its tasks hand to Swift's global executor: a `Task {}` they start, a default
///   actor's turn, a continuation they resume (``GlobalEnqueueRouting``);
/// - work the simulation hands to a dispatch queue with ``dispatch(to:_:)``, which the
///   simulation waits for before it runs anything else, so a delegate queue's code is part of
///   the timeline.
///
/// Work that must happen at the virtual time it was started but runs on another thread (a
/// request Foundation's queues carry) holds the clock with ``holdTime()``: jobs go on, but
/// no sleeper wakes until the hold is released.
///
/// What stays outside: work started by another thread (a socket's reader), and tasks not
/// started in the simulation (the caller of ``run(_:)``, a program's main code), even while
/// they visit its thread to call an actor isolated to it. At ``speed`` `.infinity` such work does not hold time back; at a finite speed
/// the simulation paces its clock to the wall clock, so processes outside ours (a Bumble host
/// on a served world, a person at a keyboard) see real-time behaviour.
///
/// Code on the thread must not block it waiting for other simulated work (a semaphore, a
/// synchronous dispatch onto a queue that waits for the simulation): nothing else would run.
public final class Simulation: TaskExecutor, SerialExecutor, @unchecked Sendable {
    // @unchecked: every stored property is immutable after init, an atomic, or reached only
    // under `lock` (the `State`); the thread handle is written once before any job exists.

    /// What runs next on the thread.
    enum Work {
        case job(UnownedJob)
        case action(@Sendable () -> Void)
    }

    /// A task asleep on the clock.
    struct Sleeper {
        var deadline: Int64
        var sequence: UInt64
        var continuation: CheckedContinuation<Void, any Error>
        /// The simulation the sleeping task belongs to (``current`` when it fell asleep):
        /// usually this one; none for a program's main code waiting on a simulated world.
        var home: Simulation?

        /// Resumes the task where it belongs, not where the waking thread is.
        func wake(throwing error: (any Error)? = nil) {
            SimulationThread.routing(to: home) {
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    struct State {
        var work: [Work] = []
        var sleepers: [Sleeper] = []
        /// Sleep numbers handed out whose sleepers have not registered yet.
        var unregistered: Set<UInt64> = []
        /// Of those, the ones cancelled before they registered.
        var cancelledEarly: Set<UInt64> = []
        var nextSequence: UInt64 = 0
        /// Blocks handed to dispatch queues and not finished.
        var external = 0
        /// Holds on the clock not yet released (``holdTime()``): while any is held, no sleeper wakes.
        var timeHolds = 0
        var stopping = false
        var stopped = false
        /// The wall clock and simulated time at which pacing started (finite speeds).
        var pacingOrigin: (wall: Int64, simulated: Int64)?
        /// The state of ``drawSeed()``'s SplitMix64 sequence.
        var seedState: UInt64 = 0
        /// Counts work submitted, so a main-queue probe can tell whether any came meanwhile.
        var submitted: UInt64 = 0
        /// Whether a main-queue probe came back with nothing submitted since it was sent:
        /// the main queue has settled and time may move (``waitsForMainQueue``).
        var mainQueueSettled = false
        /// A probe is on its way through the main queue.
        var probing = false
        /// Callers of ``finish()`` waiting for the thread to end.
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let lock = ConditionLock()
    /// Reached only under ``lock``: `nonisolated(unsafe)` because the pthread mutex, not the
    /// compiler, serialises every read and write.
    nonisolated(unsafe) var state = State()
    /// The simulated time, in microseconds; written only by the thread, under ``lock``.
    let time = Atomic<Int64>(0)
    private let finished = ConditionLock()
    /// Whether the thread has ended; read and written only under ``finished``'s mutex, which is
    /// why `nonisolated(unsafe)` is safe.
    nonisolated(unsafe) private var threadEnded = false

    /// Simulated seconds per wall-clock second: `.infinity` (the default) runs as fast as the
    /// processor allows; a finite speed paces the clock to the wall clock (`1`: real time).
    public let speed: Double
    /// Whether time waits for the main queue to drain before it moves: for code on the main
    /// actor (an app's delegates, a test of Apple-style code), whose jobs Swift hands to the
    /// main queue where the simulation cannot take them. The main-actor code itself still
    /// runs on the main thread, beside the simulation's; this keeps time from running ahead
    /// of it. Needs a main thread that serves the main queue (an async `main`, `dispatchMain`).
    public let waitsForMainQueue: Bool
    /// The thread's name.
    public let name: String

    /// Starts the simulation's thread at simulated time 0.
    /// - Parameters:
    ///   - speed: simulated seconds per wall-clock second; `.infinity` for as fast as possible.
    ///   - seed: starts the sequence of ``drawSeed()``.
    ///   - name: names the thread, in logs.
    /// - Throws: ``SimulationError`` when the system refuses a thread.
    ///   - waitsForMainQueue: time moves only once the main queue has drained
    ///     (``waitsForMainQueue``).
    public init(speed: Double = .infinity, seed: UInt64 = 0, waitsForMainQueue: Bool = false,
                name: String = "ble-simulation") throws(SimulationError) {
        self.speed = speed > 0 ? speed : .infinity
        self.waitsForMainQueue = waitsForMainQueue
        self.name = name
        state.seedState = seed
        GlobalEnqueueRouting.install()
        if waitsForMainQueue { MainActorHops.register(self) }
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let simulation = Unmanaged<Simulation>.fromOpaque(context).takeRetainedValue()
            simulation.runThread()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Simulation>.fromOpaque(context).release()
            throw SimulationError(name: name, code: created)
        }
        pthread_detach(thread)
    }

    /// Whether ``shutdown()`` has ended the simulation's thread: loops that sleep on its
    /// clock end then, since every sleep throws at once.
    public var isShutDown: Bool { lock.withLock { state.stopped } }

    /// The simulated time in microseconds since the simulation started.
    public var now: Int64 { time.load(ordering: .acquiring) }

    /// The simulation's clock, for hosts and apps (``StackClock``).
    public var clock: VirtualClock { VirtualClock(simulation: self) }

    /// Whether the caller runs on the simulation's thread: the isolation of an actor whose
    /// executor is the simulation (the world's runner).
    public func isIsolatingCurrentContext() -> Bool? {
        SimulationThread.current === self
    }

    /// The simulation the caller belongs to, if any. For code in a task: the simulation the
    /// task was started in (``ambient``), else the one whose thread runs it if the task
    /// prefers that simulation as its executor; a task from elsewhere that visits the thread
    /// (calling an actor isolated to the simulation) belongs to none. For code outside any
    /// task: the simulation whose thread, or dispatched block, it runs on.
    public static var current: Simulation? {
        withUnsafeCurrentTask { task in
            guard let task else { return SimulationThread.current }
            if let ambient { return ambient }
            guard let thread = SimulationThread.current,
                  task.unownedTaskExecutor == thread.asUnownedTaskExecutor() else { return nil }
            return thread
        }
    }

    /// The simulation a task tree belongs to: set for the body of ``run(_:)``, and inherited
    /// by the tasks it starts, so work they hand to the global executor from another thread
    /// (the main actor's) still joins the simulation.
    @TaskLocal public static var ambient: Simulation?

    // MARK: Jobs

    /// Queues `job` to run on the simulation's thread. After ``shutdown()`` it goes to Swift's
    /// global executor instead, so no task is left without a thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Queues a job that was headed for the global executor (``GlobalEnqueueRouting``).
    func enqueueGlobal(_ job: UnownedJob) {
        submit(.job(job))
    }

    /// Runs `action` on the simulation's thread as a job of its own.
    public func execute(_ action: @escaping @Sendable () -> Void) {
        submit(.action(action))
    }

    func submit(_ work: Work) {
        let accepted = lock.withLock { () -> Bool in
            guard !state.stopped else { return false }
            state.work.append(work)
            state.submitted &+= 1
            lock.signal()
            return true
        }
        guard !accepted else { return }
        switch work {
        case let .job(job): globalConcurrentExecutor.enqueue(job)
        case let .action(action): action()
        }
    }

    /// Runs `body` as a task on the simulation and returns its result to the caller, who
    /// stays where it was (the caller's own code does not move onto the thread).
    /// - Throws: what `body` throws.
    public func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let handle = LockedSlot<Task<Void, Never>>(nil)
        // The task holds the body only through this slot, emptied before the caller resumes:
        // a caller may pass a closure it must not let escape (`withoutActuallyEscaping`).
        let slot = LockedSlot<@Sendable () async throws -> T>(body)
        // Where the caller goes on when the body ends: its own simulation, or none.
        let home = Simulation.current
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (caller: CheckedContinuation<T, any Error>) in
                let task = Simulation.$ambient.withValue(self) { Task(executorPreference: self) {
                    var work = slot.value
                    let result: Result<T, any Error>
                    do { result = .success(try await work?() ?? { throw CancellationError() }()) } catch { result = .failure(error) }
                    work = nil
                    slot.clear()
                    // Resumed by the body's task, the caller would be routed onto this
                    // simulation; it goes back where it came from.
                    SimulationThread.routing(to: home) { caller.resume(with: result) }
                } }
                handle.value = task
            }
        } onCancel: {
            handle.value?.cancel()
        }
    }

    // MARK: Ending

    /// Ends the thread once the work queued so far has run. Later jobs go to Swift's global
    /// executor; tasks still asleep on the clock are woken with `CancellationError`. Waits for
    /// the thread to end unless called on it.
    public func shutdown() {
        lock.withLock {
            state.stopping = true
            lock.signal()
        }
        guard SimulationThread.current !== self else { return }
        finished.withLock {
            while !threadEnded { finished.wait() }
        }
    }

    deinit {
        // The thread holds the simulation while it runs, so this only runs once it ended.
    }

    // MARK: The thread

    private func runThread() {
        // Bound on the thread itself: a `Task {}` started by an action (outside any task)
        // copies it and belongs to this simulation; jobs of tasks see their own values.
        Simulation.$ambient.withValue(self) { runLoop() }
    }

    private func runLoop() {
        SimulationThread.setCurrent(self)
        let taskExecutor = asUnownedTaskExecutor(), serialExecutor = asUnownedSerialExecutor()
        var batch: [Work] = []
        while true {
            let step = nextStep(swapping: &batch)
            switch step {
            case .stop:
                finishThread()
                return
            case .run:
                for work in batch {
                    switch work {
                    case let .job(job): job.runSynchronously(isolatedTo: serialExecutor, taskExecutor: taskExecutor)
                    case let .action(action): action()
                    }
                }
                batch.removeAll(keepingCapacity: true)
            case let .wake(sleeper):
                sleeper.wake()
            }
        }
    }

    private enum Step {
        case run
        case wake(Sleeper)
        case stop
    }

    /// Waits under the lock for the next thing to do: queued work (once no dispatched block
    /// runs), else the earliest sleeper (at its wall time when paced), else anything at all.
    private func nextStep(swapping batch: inout [Work]) -> Step {
        lock.withLock {
            while true {
                if state.external > 0 {
                    lock.wait()
                    continue
                }
                if !state.work.isEmpty {
                    catchUpWithWallClock()
                    swap(&batch, &state.work)
                    return .run
                }
                if state.stopping { return .stop }
                if state.timeHolds > 0 {
                    lock.wait()
                    continue
                }
                guard let index = earliestSleeper() else {
                    lock.wait()
                    continue
                }
                if waitsForMainQueue, !state.mainQueueSettled {
                    probeMainQueue()
                    lock.wait()
                    continue
                }
                let deadline = state.sleepers[index].deadline
                if let wallDeadline = wallTime(of: deadline) {
                    let wallNow = WallClock.monotonicMicroseconds()
                    if wallNow < wallDeadline {
                        lock.wait(untilMonotonicMicroseconds: wallDeadline)
                        continue
                    }
                }
                state.mainQueueSettled = false
                let sleeper = state.sleepers.remove(at: index)
                if sleeper.deadline > time.load(ordering: .relaxed) { time.store(sleeper.deadline, ordering: .releasing) }
                return .wake(sleeper)
            }
        }
    }

    private func finishThread() {
        let abandoned = lock.withLock { () -> [Sleeper] in
            state.stopped = true
            defer { state.sleepers = [] }
            return state.sleepers
        }
        for sleeper in abandoned { sleeper.wake(throwing: CancellationError()) }
        // Work that slipped in between the last batch and `stopped` still runs somewhere.
        let late = lock.withLock { () -> [Work] in
            defer { state.work = [] }
            return state.work
        }
        SimulationThread.setCurrent(nil)
        for work in late {
            switch work {
            case let .job(job): globalConcurrentExecutor.enqueue(job)
            case let .action(action): action()
            }
        }
        finished.withLock {
            threadEnded = true
            finished.broadcast()
        }
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            defer { state.finishWaiters = [] }
            return state.finishWaiters
        }
        // The waiters go on where they belong, not on this thread's simulation.
        for waiter in waiters { SimulationThread.routing(to: nil) { waiter.resume() } }
    }
}
