import BLEController
import BLETime
import BLEWire

/// Runs a ``World`` on a ``Simulation``'s clock (DESIGN.md, "Determinism, one clock"): the
/// world's next event is a sleeper on the simulation's virtual clock like any host's timer,
/// so the world, the hosts attached to it and their apps share one timeline. At the
/// simulation's speed `.infinity` a run goes as fast as the processor allows and gives the
/// same result on any machine; at a finite speed the simulation paces its clock to the wall
/// clock (demos, processes outside ours).
///
/// The world is single-threaded and not `Sendable`, so the runner owns it inside an actor
/// whose executor is the simulation's thread. Other tasks (a TCP connection's handler, a
/// host's writer) hand host packets in with ``submit(_:to:)``, which is thread-safe and
/// never blocks: packets are delivered on the runner at the simulated time they arrive (a
/// paced world that has fallen behind its clock takes them at once, at its own time).
/// Everything else about the world is reached through ``withWorld(_:)``.
public actor WorldRunner {
    /// A host packet for a device, waiting to be delivered.
    private struct Submission: Sendable {
        var packet: H4.Packet
        var device: DeviceID
    }

    private let world: World
    /// The simulation whose thread and clock the world runs on.
    public nonisolated let simulation: Simulation
    private let submissions: AsyncStream<Submission>
    private let submissionInput: AsyncStream<Submission>.Continuation
    private var wake: Task<Void, any Error>?
    private var stopped = false
    /// Whether the runner made its simulation, and so ends it in ``stop()``.
    private let ownsSimulation: Bool

    public nonisolated var unownedExecutor: UnownedSerialExecutor { simulation.asUnownedSerialExecutor() }

    /// A runner for `world` on `simulation`, which hosts and apps share.
    /// - Parameter endingSimulation: whether ``stop()`` also shuts the simulation down
    ///   (when the world is the only thing on it).
    public init(world: sending World, simulation: Simulation, endingSimulation: Bool = false) {
        self.world = world
        self.simulation = simulation
        ownsSimulation = endingSimulation
        (submissions, submissionInput) = AsyncStream.makeStream(of: Submission.self, bufferingPolicy: .unbounded)
    }

    /// A runner for `world` on a simulation of its own at `speed` (simulated seconds per
    /// wall-clock second; `.infinity` for as fast as possible), ended by ``stop()``.
    /// - Throws: ``SimulationError`` when the system refuses the simulation its thread.
    public init(world: sending World, speed: Double) throws(SimulationError) {
        self.world = world
        simulation = try Simulation(speed: speed, name: "ble-world")
        ownsSimulation = true
        (submissions, submissionInput) = AsyncStream.makeStream(of: Submission.self, bufferingPolicy: .unbounded)
    }

    /// Simulated seconds per wall-clock second (the simulation's).
    public nonisolated var speed: Double { simulation.speed }

    /// The clock of the world's simulation, for the hosts and apps attached to the world.
    public nonisolated var clock: VirtualClock { simulation.clock }

    /// Hands a host packet to a device's controller at the simulated time it arrives. Safe
    /// from any thread or task.
    public nonisolated func submit(_ packet: H4.Packet, to device: DeviceID) {
        submissionInput.yield(Submission(packet: packet, device: device))
    }

    /// Runs `body` with the world, on the runner's isolation: set-up, queries, faults.
    public func withWorld<Result: Sendable>(_ body: (World) throws -> Result) rethrows -> Result {
        try body(world)
    }

    /// The world's simulated time.
    public var now: Microseconds { world.now }

    /// Ends ``run(until:)`` at the next opportunity; a runner that made its own simulation
    /// ends that too, once the work queued on it has run.
    public func stop() {
        stopped = true
        wake?.cancel()
        submissionInput.finish()
        if ownsSimulation { simulation.shutdown() }
    }

    /// Runs the world until simulated time `limit` (or for ever with `nil`), until
    /// ``stop()``, or until the surrounding task is cancelled. Returns the simulated time
    /// reached.
    @discardableResult
    public func run(until limit: Microseconds? = nil) async -> Microseconds {
        stopped = false
        let feeder = Task(executorPreference: simulation) { [submissions, simulation] in
            for await submission in submissions {
                // A shut-down simulation has no world running any more: nothing to deliver to.
                if simulation.isShutDown { return }
                await self.deliver(submission)
            }
        }
        defer { feeder.cancel() }
        let clock = simulation.clock
        while !stopped, !Task.isCancelled {
            let next = world.nextEventTime
            let reachesLimit = limit.map { limit in next.map { $0 > limit } ?? true } ?? false
            let target: Microseconds? = reachesLimit ? limit : next
            // Sleep even for an event already due: the simulation wakes the runner once the
            // hosts have settled, so a host answers a packet in no simulated time.
            guard await sleep(until: target, on: clock) else {
                // Woken early by a delivery: look again. A shut-down simulation wakes every
                // sleep at once, so the run ends with it.
                if simulation.isShutDown { break }
                continue
            }
            if reachesLimit, let limit {
                world.run(until: max(limit, world.now))
                break
            }
            world.runNextEvent()
        }
        return world.now
    }

    /// Events a delivery runs at most to bring the world up to the simulation's time.
    private static let catchUpBudget = 4096

    private func deliver(_ submission: Submission) {
        let target = simulation.now
        // A paced world behind its speed (a loaded machine) takes the packet at once, at its
        // own time, and the run loop works off the backlog around the deliveries: catching up
        // first would put every packet behind the whole backlog, and a host whose commands
        // time out on the wall clock would see the world stop answering. Otherwise the packet
        // lands at the simulated time it arrives, after every event due by then (unpaced, the
        // events of the same instant; bounded all the same).
        let behind = simulation.speed.isFinite && world.nextEventTime.map { $0 <= target } == true
        if !behind {
            var budget = Self.catchUpBudget
            while budget > 0, let next = world.nextEventTime, next <= target {
                world.runNextEvent()
                budget -= 1
            }
            if budget > 0 { world.run(until: max(target, world.now)) }
        }
        world.sendToController(submission.packet, device: submission.device)
        wake?.cancel()
    }

    /// Sleeps on the simulation's clock until `deadline` (until woken, with `nil`); a
    /// delivery or ``stop()`` cuts it short, since a new packet may have created an earlier
    /// event. Returns whether the deadline was reached.
    private func sleep(until deadline: Microseconds?, on clock: VirtualClock) async -> Bool {
        let task = Task(executorPreference: simulation) {
            if let deadline {
                try await clock.sleep(untilMicroseconds: deadline)
            } else {
                // Nothing scheduled: nothing happens until a host sends something.
                try await Task.never()
            }
        }
        wake = task
        let reached: Bool
        do {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
            reached = true
        } catch {
            reached = false
        }
        wake = nil
        return reached
    }
}

extension Task where Success == Never, Failure == Never {
    /// Suspends until the task is cancelled, then throws `CancellationError`.
    static func never() async throws {
        let (stream, _) = AsyncStream.makeStream(of: Never.self)
        for await _ in stream {}
        try Task<Never, Never>.checkCancellation()
        throw Swift.CancellationError()
    }
}
