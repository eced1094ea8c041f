#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Routes jobs bound for Swift's global executor onto the ``Simulation`` the enqueuing code
/// belongs to (``Simulation/current``), so a `Task {}` started in simulated code, a default
/// actor it calls, or a continuation it resumes stays in the simulation's timeline without
/// every call site naming the simulation as its executor preference.
///
/// Membership follows the task, not the thread: a task from outside that visits the
/// simulation's thread (a call into an actor isolated to the simulation) does not join it;
/// what it starts goes to the global executor, and so does it when it wakes from the
/// simulation's clock or returns from ``Simulation/run(_:)``. So a test runner or a
/// program's main code does not settle on a simulation's thread, where a blocking call would
/// stop the simulation. (Swift may still run a visitor's next lines on the thread after an
/// isolated call returns, until the visitor next suspends.)
///
/// It uses the Swift runtime's `swift_task_enqueueGlobal_hook`, a function pointer the
/// concurrency runtime consults before it hands a job to the global executor (the hook that
/// test libraries use to serialise async tests). Jobs enqueued on a thread that works for no
/// simulation go on to whatever handled them before (the previous hook, else the runtime's
/// own global executor), so code outside a simulation is unaffected, but for a hop off the
/// main actor while a simulation waits for the main queue (``MainActorHops``). If the
/// runtime lacks the hook, nothing is installed and a simulation still holds every task
/// that prefers it as its executor (``isInstalled`` says which).
public enum GlobalEnqueueRouting {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// The hook that was there before ours, called for jobs outside any simulation. Written
    /// once, under ``installed``'s lock, before our hook is in place to read it.
    @exclusivity(unchecked) nonisolated(unsafe) private static var previous: Hook?
    private static let installed = Mutex(false)

    /// Whether the hook is in place.
    public static var isInstalled: Bool { installed.withLock { $0 } }

    /// Installs the routing once per process; later calls do nothing.
    static func install() {
        installed.withLock { installed in
            guard !installed else { return }
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_enqueueGlobal_hook") else { return }
            let slot = symbol.assumingMemoryBound(to: Hook?.self)
            previous = slot.pointee
            MainActorHops.markMainQueue()
            slot.pointee = { job, original in
                let simulation = SimulationThread.route.map(\.simulation) ?? Simulation.current
                if let simulation {
                    simulation.enqueueGlobal(job)
                } else if let holds = MainActorHops.holdsForHopFromMainQueue() {
                    MainActorHops.run(job, releasing: holds)
                } else if let previous = GlobalEnqueueRouting.previous {
                    previous(job, original)
                } else {
                    original(job)
                }
            }
            installed = true
        }
    }
}
