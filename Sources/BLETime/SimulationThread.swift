#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which ``Simulation`` the current thread works for: its own thread, or a dispatch queue's
/// thread while it runs a block for it (``Simulation/dispatch(to:_:)``). A thread-specific
/// value, since the question is asked for every job the global executor is handed.
enum SimulationThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

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

    /// Runs `body` with the calling thread working for no simulation: what it resumes or
    /// starts goes to Swift's global executor.
    static func outside(_ body: () -> Void) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, nil)
        body()
        pthread_setspecific(key, previous)
    }
}
