import BLEController
import BLEWire

/// Runs a ``World`` against the wall clock (DESIGN.md: "Real time is one way to drive the
/// clock"): simulated time advances `speed` times as fast as real time, or as fast as the
/// processor allows with `speed = .infinity`.
///
/// The world is single-threaded and not `Sendable`, so the runner owns it inside an actor.
/// Other tasks (a TCP connection's handler, say) hand host packets in with ``submit(_:to:)``,
/// which is thread-safe and never blocks: packets go through an `AsyncStream` and are
/// delivered on the actor at the simulated time that corresponds to "now" on the wall clock.
/// Everything else about the world is reached through ``withWorld(_:)``.
///
/// As fast as possible and with no packets from outside, a run is deterministic: the same
/// world gives the same outputs whatever the machine's speed.
public actor WorldRunner {
    /// A host packet for a device, waiting to be delivered.
    private struct Submission: Sendable {
        var packet: H4.Packet
        var device: DeviceID
    }

    private let world: World
    /// Simulated seconds per wall-clock second; `.infinity` runs without pacing.
    public let speed: Double
    private let clock = ContinuousClock()
    private let submissions: AsyncStream<Submission>
    private let submissionInput: AsyncStream<Submission>.Continuation
    private var origin: (wall: ContinuousClock.Instant, simulated: Microseconds)?
    private var wake: Task<Void, any Error>?
    private var stopped = false
    private var eventsSinceYield = 0
    /// Events run back to back before submitted packets get a turn.
    private static let eventsPerYield = 4096

    /// A runner for `world` at `speed` (simulated seconds per wall-clock second).
    public init(world: sending World, speed: Double = 1) {
        self.world = world
        self.speed = speed > 0 ? speed : 1
        (submissions, submissionInput) = AsyncStream.makeStream(of: Submission.self, bufferingPolicy: .unbounded)
    }

    /// Hands a host packet to a device's controller as soon as the runner gets to it, at
    /// the simulated time matching the wall clock. Safe from any thread or task.
    public nonisolated func submit(_ packet: H4.Packet, to device: DeviceID) {
        submissionInput.yield(Submission(packet: packet, device: device))
    }

    /// Runs `body` with the world, on the runner's isolation: set-up, queries, faults.
    public func withWorld<Result: Sendable>(_ body: (World) throws -> Result) rethrows -> Result {
        try body(world)
    }

    /// The simulated time now.
    public var now: Microseconds { world.now }

    /// Ends ``run(until:)`` at the next opportunity.
    public func stop() {
        stopped = true
        wake?.cancel()
    }

    /// Runs the world until simulated time `limit` (or for ever with `nil`), until
    /// ``stop()``, or until the surrounding task is cancelled. Returns the simulated time
    /// reached.
    @discardableResult
    public func run(until limit: Microseconds? = nil) async -> Microseconds {
        stopped = false
        origin = (clock.now, world.now)
        let feeder = Task { [submissions] in
            for await submission in submissions { self.deliver(submission) }
        }
        defer { feeder.cancel() }
        while !stopped, !Task.isCancelled {
            let next = world.nextEventTime
            if let limit, next.map({ $0 > limit }) ?? true {
                // Nothing more before the limit: wait for the limit's wall time (packets
                // may still arrive and create events), then stop there.
                if speed.isInfinite || clock.now >= wallTime(of: limit) {
                    world.run(until: max(limit, world.now))
                    break
                }
                await sleep(until: wallTime(of: limit))
                continue
            }
            guard let next else {
                // An empty queue: nothing happens until a host sends something.
                await sleep(until: nil)
                continue
            }
            if !speed.isInfinite, clock.now < wallTime(of: next) {
                // Pacing, not polling: the world cannot change before its next event
                // unless a packet arrives, and a packet's delivery wakes us early.
                await sleep(until: wallTime(of: next))
                continue
            }
            world.runNextEvent()
            // Let submitted packets in now and then without costing every event a hop: at
            // infinite speed, and at a finite one that has fallen behind the wall clock,
            // which would otherwise run without suspending until it caught up, if ever.
            eventsSinceYield += 1
            if eventsSinceYield >= Self.eventsPerYield {
                eventsSinceYield = 0
                await Task.yield()
            }
        }
        return world.now
    }

    /// The simulated time matching the wall clock now (never before the world's time).
    private func simulatedNow() -> Microseconds {
        guard let origin, !speed.isInfinite else { return world.now }
        let elapsed = clock.now - origin.wall
        let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        return max(world.now, origin.simulated + Microseconds(micros * speed))
    }

    /// The wall-clock instant at which simulated time `time` is due.
    private func wallTime(of time: Microseconds) -> ContinuousClock.Instant {
        guard let origin else { return clock.now }
        let seconds = Double(time - origin.simulated) / 1e6 / speed
        return origin.wall + .microseconds(Int64((seconds * 1e6).rounded(.up)))
    }

    private func deliver(_ submission: Submission) {
        // Bring the world up to "now" first, so the packet lands after every event that
        // was due, at the simulated time the wall clock says. A world that has fallen
        // behind is not made to catch up here, which could take for ever: after a bounded
        // amount of work the packet lands at the world's own time.
        let target = simulatedNow()
        var budget = Self.eventsPerYield
        while budget > 0, let next = world.nextEventTime, next <= target {
            world.runNextEvent()
            budget -= 1
        }
        if budget > 0 { world.run(until: target) }
        world.sendToController(submission.packet, device: submission.device)
        wake?.cancel()
    }

    /// Sleeps until `deadline` (or until woken, with `nil`); ``deliver(_:)`` and ``stop()``
    /// cut it short, since a new packet may have created an earlier event.
    private func sleep(until deadline: ContinuousClock.Instant?) async {
        let clock = self.clock
        let task = Task {
            if let deadline {
                try await clock.sleep(until: deadline, tolerance: .microseconds(100))
            } else {
                try await clock.sleep(for: .seconds(3600))
            }
        }
        wake = task
        _ = try? await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        wake = nil
    }
}
