import BLETime
import Testing

/// Runs each test it is applied to (or each test of a suite it is applied to) on a fresh
/// ``Simulation`` at full speed: the test's body, the worlds it builds, their hosts and
/// every task they start share one virtual clock, so the test waits for no wall-clock time
/// and gives the same result on an idle and on a loaded machine (DESIGN.md, "Determinism,
/// one clock"). Code in the test finds the simulation as ``Simulation/current``.
public struct SimulatedTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether the simulation lets the main queue drain before time moves
    /// (``Simulation/waitsForMainQueue``): for suites whose code runs on the main actor.
    public var waitsForMainQueue = false

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope runs its tests; each test case gets a simulation of its own.
        guard testCase != nil else {
            try await function()
            return
        }
        let simulation = try Simulation(waitsForMainQueue: waitsForMainQueue, name: "test")
        // `run` returns only once the body's task has ended, so the closure does not escape.
        // The end suspends rather than blocks: the cooperative pool has one thread per core.
        do {
            try await withoutActuallyEscaping(function) { body in
                try await simulation.run { try await body() }
            }
        } catch {
            await simulation.finish()
            throw error
        }
        await simulation.finish()
    }
}

extension Trait where Self == SimulatedTrait {
    /// Runs the test (or each test of the suite) on a fresh ``Simulation``'s virtual time.
    public static var simulated: Self { SimulatedTrait() }

    /// As ``simulated``, for suites whose bodies or delegates run on the main actor: time
    /// moves only once the main queue has drained. Only these suites pay for the probe
    /// through the main queue, which every simulation in the process shares.
    public static var simulatedOnMainActor: Self { SimulatedTrait(waitsForMainQueue: true) }
}

/// The clock a test's waits run on: its simulation's virtual clock inside a
/// ``SimulatedTrait`` test, else the wall clock (a test that talks to a process outside).
public var testClock: any StackClock {
    Simulation.current?.clock ?? WallClock()
}

/// Thrown by ``withTimeout(_:_:)`` when the work did not finish in time.
public struct TestTimedOut: Error, CustomStringConvertible {
    /// How long the test waited, in seconds on ``testClock``.
    public var seconds: Double
    /// A time-out after `seconds` (0: not said).
    public init(seconds: Double = 0) { self.seconds = seconds }
    public var description: String { "timed out after \(seconds) s" }
}

/// The result of `work`, or ``TestTimedOut`` after `seconds` on ``testClock`` (simulated
/// seconds in a simulated test). The work is cancelled then, but not awaited, so a test
/// fails rather than hangs on a wait that ignores cancellation.
public func withTimeout<T: Sendable>(
    _ seconds: Double, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let clock = testClock
    let outcome = FirstOutcome<T>()
    let worker = Task {
        do { outcome.settle(.success(try await work())) } catch { outcome.settle(.failure(error)) }
    }
    let timer = Task {
        do {
            try await clock.sleep(seconds: seconds)
            outcome.settle(.failure(TestTimedOut(seconds: seconds)))
        } catch {}
    }
    let result = await outcome.value()
    timer.cancel()
    worker.cancel()
    return try result.get()
}
