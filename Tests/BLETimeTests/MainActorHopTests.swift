import BLETime
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// ``Simulation/waitsForMainQueue``: a main-actor task that calls a nonisolated async function
/// leaves the main actor for Swift's global executor, and the simulation's clock waits for
/// that part to run, as it waits for the main queue (an app's `URLSession.data(for:)` leaves
/// at the virtual time the app made the call).
@Suite("Simulation: a hop off the main actor keeps the clock")
struct MainActorHopTests {
    @Test("A main-actor task's call into a nonisolated async function reads the virtual time the task made it at, while a ticker keeps the clock busy")
    func hopKeepsTheClock() async throws {
        let simulation = try Simulation(waitsForMainQueue: true, name: "hop")
        defer { simulation.shutdown() }
        let pairs = try await simulation.run { () -> [Pair] in
            // Something always due 100 µs ahead: an unheld clock moves whenever it may.
            let ticker = Task {
                while !Task.isCancelled { try await simulation.clock.sleep(untilMicroseconds: simulation.now + 100) }
            }
            var pairs: [Pair] = []
            for _ in 0 ..< 10 {
                pairs.append(await Self.hopFromMainActor(simulation))
                try await simulation.clock.sleep(untilMicroseconds: simulation.now + 1_000)
            }
            ticker.cancel()
            return pairs
        }
        #expect(pairs.count == 10)
        for pair in pairs { #expect(pair.onMainActor == pair.afterHop, "\(pair)") }
    }

    /// The virtual times a main-actor task saw before its hop and in the nonisolated function.
    struct Pair: Sendable {
        var onMainActor: Int64
        var afterHop: Int64
    }

    /// Starts a main-actor task as an app's delegate would (through the main queue, with the
    /// simulation's work waiting for it) and returns what it saw.
    static func hopFromMainActor(_ simulation: Simulation) async -> Pair {
        await withCheckedContinuation { continuation in
            simulation.dispatch(to: .main) {
                MainActor.assumeIsolated {
                    _ = Task { @MainActor in
                        let before = simulation.now
                        let after = await readSlowly(simulation)
                        continuation.resume(returning: Pair(onMainActor: before, afterHop: after))
                    }
                }
            }
        }
    }

    /// Off the main actor: 20 ms of wall-clock time (a slow thread), then the virtual time.
    nonisolated static func readSlowly(_ simulation: Simulation) async -> Int64 {
        usleep(20_000)
        return simulation.now
    }
}
