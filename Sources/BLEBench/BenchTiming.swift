import BLEController
import BLETime

/// A span measured on both clocks: the wall clock (what the processor did) and the
/// world's simulated clock (what the air did).
public struct BenchSpan: Sendable {
    /// Seconds on the wall clock: what this machine's processor took.
    public var wallSeconds: Double
    /// Seconds on the world's simulated clock: what the air took.
    public var simulatedSeconds: Double

    /// The span from `wallStart`/`simulatedStart` to now. The wall-clock edge: the
    /// wall-clock half of a bench's figure is the processor's time.
    static func since(_ wallStart: ContinuousClock.Instant, simulated simulatedStart: Microseconds,
                      on runner: any WorldDriver) async -> BenchSpan {
        // The wall-clock edge: the processor's time spent on the span.
        let elapsed = ContinuousClock.now - wallStart
        let simulatedEnd = await runner.now
        return BenchSpan(wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                         simulatedSeconds: Double(simulatedEnd - simulatedStart) / 1e6)
    }
}

/// Ends a task that waits for the stack once the world's clock has run `limit` past the
/// moment `begin` returns: a lost notification or write then shows as a short count,
/// not as a bench that never ends.
enum BenchWatchdog {
    /// Starts the watchdog; cancel it once `task` is done.
    static func start<Success: Sendable>(cancelling task: Task<Success, Never>, on runner: any WorldDriver,
                                         after begin: @escaping @Sendable () async -> Void,
                                         limit: Microseconds = 5_000_000) -> Task<Void, Never> {
        Task {
            await begin()
            let deadline = await runner.now + limit
            if let simulation = Simulation.current {
                // On the world's simulation the world's clock is the simulation's: one alarm.
                do { try await simulation.clock.sleep(untilMicroseconds: deadline) } catch { return }
                task.cancel()
                return
            }
            while !Task.isCancelled {
                if await runner.now > deadline {
                    task.cancel()
                    return
                }
                // The wall-clock edge: the watchdog polls the bench's world from outside it, and
                // that world's clock has no alarms for outsiders.
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}
