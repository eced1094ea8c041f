#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which ``Simulation`` the current thread works for: its own thread, or a dispatch queue's
/// thread while it runs a block for it (``Simulation/dispatch(to:_:)``); and, for a moment,
/// where a job enqueued on this thread must go whoever enqueues it (``routing(to:_:)``).
/// Thread-specific values, since the questions are asked for every job the global executor
/// is handed.
enum SimulationThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static let routeKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Where jobs enqueued on this thread go while ``routing(to:_:)`` runs: a simulation,
    /// or none (Swift's global executor).
    final class Route {
        let simulation: Simulation?
        init(_ simulation: Simulation?) { self.simulation = simulation }
    }

    /// The destination ``routing(to:_:)`` set on this thread, if it runs.
    static var route: Route? {
        guard let pointer = pthread_getspecific(routeKey) else { return nil }
        return Unmanaged<Route>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with every job enqueued on the global executor from this thread sent to
    /// `simulation`, or to Swift's global executor when it is nil, whatever task or thread
    /// enqueues it: for resuming a continuation whose task belongs elsewhere (the caller of
    /// ``Simulation/run(_:)``, a sleeper of another simulation).
    static func routing(to simulation: Simulation?, _ body: () -> Void) {
        let route = Route(simulation)
        let previous = pthread_getspecific(routeKey)
        withExtendedLifetime(route) {
            pthread_setspecific(routeKey, Unmanaged.passUnretained(route).toOpaque())
            body()
            pthread_setspecific(routeKey, previous)
        }
    }

    /// The simulation of the calling thread. The pointer is unretained: the simulation's
    /// thread holds the simulation while it runs, and ``inside(_:_:)`` while its block runs.
    static var current: Simulation? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Simulation>.fromOpaque(pointer).takeUnretainedValue()
    }

    static func setCurrent(_ simulation: Simulation?) {
        pthread_setspecific(key, simulation.map { Unmanaged.passUnretained($0).toOpaque() })
    }

    /// Runs `body` with the calling thread working for `simulation`.
    static func inside(_ simulation: Simulation, _ body: () -> Void) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(simulation).toOpaque())
        withExtendedLifetime(simulation) { body() }
        pthread_setspecific(key, previous)
    }
}
