import BLEHost
import Synchronization

/// `operation`, or ``TimedOut`` after `seconds` of waiting for it — then `host` is closed,
/// which ends every call waiting in it (their continuations have no cancellation).
func patiently<T: Sendable>(
    _ host: BLEHost.Host, seconds: Double = patience, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        guard let first = try await group.next() else { throw TimedOut() }
        guard let value = first else {
            await host.close()
            group.cancelAll()
            throw TimedOut()
        }
        group.cancelAll()
        return value
    }
}

/// Closes a host whose long run has stopped moving: if no ``tick()`` came for `seconds`,
/// the host is closed, which ends every call waiting in it. It waits on progress, so a run
/// may take as long as the machine needs; only a stall of ``patience`` ends it.
final class StallWatchdog: Sendable {
    private final class Ticks: Sendable {
        let count = Atomic<Int>(0)
        let stalled = Atomic<Bool>(false)
    }

    private let ticks: Ticks
    private let task: Task<Void, Never>

    init(closing host: BLEHost.Host, after seconds: Double = patience) {
        let ticks = Ticks()
        self.ticks = ticks
        task = Task {
            var seen = -1
            while !Task.isCancelled {
                // The stall limit: one wake-up per `seconds`, compared with the ticks since.
                try? await Task.sleep(for: .seconds(seconds))
                let count = ticks.count.load(ordering: .relaxed)
                if Task.isCancelled { return }
                if count == seen {
                    ticks.stalled.store(true, ordering: .relaxed)
                    await host.close()
                    return
                }
                seen = count
            }
        }
    }

    /// The run made progress.
    func tick() { ticks.count.add(1, ordering: .relaxed) }
    /// Whether the watchdog closed the host.
    var stalled: Bool { ticks.stalled.load(ordering: .relaxed) }
    func stop() { task.cancel() }
}

/// Seconds since `start`, for the run-time figures the tests print (never asserted).
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
