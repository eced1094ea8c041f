import BLETime
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing

/// An actor with no executor of its own: a default actor, as the host is.
private actor Counter {
    var values: [Int] = []
    func add(_ value: Int) { values.append(value) }
}

@Suite("Simulation: virtual time and its executor")
struct SimulationTests {
    @Test("Sleepers wake in deadline order, ties in the order they slept, and the clock reads each deadline")
    func wakeOrder() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let woken = try await simulation.run { () -> [String] in
            let log = Box<[String]>([])
            let clock = simulation.clock
            await withTaskGroup(of: Void.self) { group in
                for (name, deadline) in [("c", 3_000), ("a", 1_000), ("b1", 2_000), ("b2", 2_000)] {
                    group.addTask {
                        try? await clock.sleep(untilMicroseconds: Int64(deadline))
                        log.withLock { $0.append("\(name)@\(clock.microseconds)") }
                    }
                    await Task.yield()
                }
            }
            return log.withLock { $0 }
        }
        #expect(woken == ["a@1000", "b1@2000", "b2@2000", "c@3000"])
    }

    @Test("Hours of simulated time pass without waiting for the wall clock")
    func fastForward() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let start = WallClock().microseconds
        let reached = try await simulation.run { () -> Int64 in
            for _ in 0 ..< 3600 { try await simulation.clock.sleep(for: .seconds(1)) }
            return simulation.now
        }
        #expect(reached == 3_600_000_000)
        // Not a timing assertion: an hour in real time would never get here at all.
        #expect(WallClock().microseconds - start < 3_600_000_000)
    }

    @Test("Time does not move while any job can run: a busy task holds the clock")
    func busyHoldsTime() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let (before, after) = try await simulation.run { () -> (Int64, Int64) in
            let sleeper = Task { try await simulation.clock.sleep(untilMicroseconds: 10) }
            let before = simulation.now
            for _ in 0 ..< 1000 { await Task.yield() }
            let after = simulation.now
            try await sleeper.value
            return (before, after)
        }
        #expect(before == 0)
        #expect(after == 0)
    }

    @Test("Tasks, default actors and continuations started in the simulation run on its thread")
    func routing() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let onThread = try await simulation.run { () -> [Bool] in
            var seen: [Bool] = [Simulation.current === simulation]
            let unstructured = Task { Simulation.current === simulation }
            seen.append(await unstructured.value)
            let counter = Counter()
            await counter.add(1)
            seen.append(Simulation.current === simulation)
            let (stream, input) = AsyncStream.makeStream(of: Int.self)
            let reader = Task {
                for await _ in stream { return Simulation.current === simulation }
                return false
            }
            input.yield(1)
            seen.append(await reader.value)
            return seen
        }
        #expect(GlobalEnqueueRouting.isInstalled)
        #expect(onThread == [true, true, true, true])
    }

    @Test("Cancelling a sleeper wakes it at once with CancellationError and leaves the clock alone")
    func cancellation() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let outcome = try await simulation.run { () -> (Bool, Int64) in
            let sleeper = Task { () -> Bool in
                do {
                    try await simulation.clock.sleep(for: .seconds(100))
                    return false
                } catch {
                    return error is CancellationError
                }
            }
            try await simulation.clock.sleep(for: .seconds(1))
            sleeper.cancel()
            let cancelled = await sleeper.value
            return (cancelled, simulation.now)
        }
        #expect(outcome.0)
        #expect(outcome.1 == 1_000_000)
    }

    @Test("A block dispatched to a queue holds the simulation until it returns, and tasks it starts join the simulation")
    func dispatchedWork() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let queue = DispatchQueue(label: "delegate")
        let result = try await simulation.run { () -> (Int64, Bool) in
            let joined = Box<Task<Bool, Never>?>(nil)
            let started = Box<Int64>(-1)
            simulation.dispatch(to: queue) {
                usleep(1_000)  // real work on the queue's thread: the simulation must wait for it
                started.withLock { $0 = simulation.now }
                joined.withLock { $0 = Task { Simulation.current === simulation } }
            }
            try await simulation.clock.sleep(untilMicroseconds: 5)
            let task = joined.withLock { $0 }
            let inside = await task?.value ?? false
            return (started.withLock { $0 }, inside)
        }
        #expect(result.0 == 0)
        #expect(result.1)
    }

    @Test("At a finite speed the clock keeps pace with the wall clock")
    func paced() async throws {
        let simulation = try Simulation(speed: 10)
        defer { simulation.shutdown() }
        let start = WallClock().microseconds
        try await simulation.run { try await simulation.clock.sleep(for: .milliseconds(500)) }
        // 500 ms of simulated time at ten times real time cannot take less than 50 ms.
        #expect(WallClock().microseconds - start >= 50_000)
    }

    @Test("The caller of run resumes off the simulation's thread, and what it starts afterwards stays off it")
    func callerResumesOutside() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let inside = try await simulation.run { Simulation.current === simulation }
        #expect(inside)
        #expect(Simulation.current == nil, "the caller came back on the simulation's thread")
        let later = await Task { Simulation.current == nil }.value
        #expect(later, "a task the caller starts afterwards joined the simulation")
    }

    @Test("A task from outside visits the simulation's thread without joining it: an isolated call, a sleep on its clock")
    func visitorStaysOutside() async throws {
        let simulation = try Simulation()
        defer { simulation.shutdown() }
        let isolated = SimulationIsolated(simulation)
        let during = await isolated.observe()
        #expect(during.onThread, "the call ran on the simulation's thread")
        #expect(!during.member, "a visiting task counted as the simulation's own")
        // Woken by the simulation's thread, the sleeper is queued where it belongs: outside.
        try await simulation.clock.sleep(for: .seconds(1))
        #expect(simulation.isIsolatingCurrentContext() == false, "the sleeper woke on the simulation's thread")
        #expect(Simulation.current == nil)
        #expect(simulation.now == 1_000_000)
    }

    @Test("Shutting down wakes sleepers with CancellationError, and later jobs still run")
    func shutdownWakes() async throws {
        // Paced at real time, so the sleeper is still asleep when the simulation ends.
        let simulation = try Simulation(speed: 1)
        let registered = AsyncStream<Void>.makeStream()
        let asleep = Task(executorPreference: simulation) { () -> Bool in
            // Yielded on the simulation's thread before the sleep, which registers in the same
            // job: the simulation runs the job to its first suspension before anything else.
            registered.continuation.yield()
            do {
                try await simulation.clock.sleep(for: .seconds(3600))
                return false
            } catch { return true }
        }
        for await _ in registered.stream { break }
        while simulation.sleeperCount == 0 { await Task.yield() }  // the job may still be running
        simulation.shutdown()
        #expect(await asleep.value)
        let after = Task(executorPreference: simulation) { 42 }
        #expect(await after.value == 42)
    }

    @Test("finish() suspends until the thread has ended, after the work queued before it; a second finish() returns at once")
    func finishSuspends() async throws {
        let simulation = try Simulation(name: "finish")
        let ran = Task(executorPreference: simulation) { Simulation.current === simulation }
        await simulation.finish()
        #expect(simulation.isShutDown)
        #expect(await ran.value, "the job queued before the end ran on the simulation's thread")
        await simulation.finish()
        #expect(simulation.isShutDown)
    }
}

/// An actor whose executor is a simulation, as the world's runner is.
private actor SimulationIsolated {
    let simulation: Simulation
    init(_ simulation: Simulation) { self.simulation = simulation }
    nonisolated var unownedExecutor: UnownedSerialExecutor { simulation.asUnownedSerialExecutor() }

    func observe() -> (onThread: Bool, member: Bool) {
        (simulation.isIsolatingCurrentContext() == true, Simulation.current === simulation)
    }
}

/// A value shared between tasks of a test.
final class Box<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}
