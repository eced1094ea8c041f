import BLEController
import BLEWire
import BLEWorld

/// What drives a bench world: ``WorldRunner`` (paced to the wall clock, or on a
/// ``Simulation`` with the hosts and the bench's tasks), or ``DirectLinkRunner`` on the
/// airtime-free link.
protocol WorldDriver: Actor {
    /// Hands a host packet to `device`'s controller; safe from any task.
    nonisolated func submit(_ packet: H4.Packet, to device: DeviceID)
    /// Whether ``submit(_:to:)`` runs the packet through the world before it returns, so a
    /// host may hand packets over on its own turn (``HostTransport/sendImmediately(_:)``).
    nonisolated var acceptsImmediately: Bool { get }
    /// The world's simulated time.
    var now: Microseconds { get }
    /// Ends ``runUntilStopped()``.
    func stop()
    /// Runs the world until ``stop()``.
    func runUntilStopped() async
    /// Tells the driver when the bench's app has done what it can before the world must
    /// move on (`nil`: no such test). Only a lock-stepped world waits for it.
    func setAppSettled(_ predicate: (@Sendable () async -> Bool)?)
    /// Wall-clock seconds the driver spent running the world's events and waiting for the
    /// hosts since the last ``resetPhases()``, when it keeps them (lock-step does).
    var phases: BenchPhases? { get }
    /// Starts the phase counters again.
    func resetPhases()
}

/// Where a lock-stepped bench's wall-clock time went: the runner's thread runs the world
/// (controllers, air) or waits for the hosts to settle; the hosts also work while the world
/// runs, on the other threads.
public struct BenchPhases: Sendable {
    /// Seconds inside the world's events and deliveries to controllers.
    public var worldSeconds: Double = 0
    /// Seconds waiting for hosts and apps to settle.
    public var settleSeconds: Double = 0
    /// Settle rounds: how often the world stopped for the hosts.
    public var settles = 0
}

extension WorldRunner: WorldDriver {
    nonisolated var acceptsImmediately: Bool { false }
    func runUntilStopped() async { await run() }
    /// A paced world runs on the wall clock, where the app keeps up or not, as with real
    /// radios; a simulated one waits for every task of its simulation anyway.
    func setAppSettled(_ predicate: (@Sendable () async -> Bool)?) {}
    var phases: BenchPhases? { nil }
    func resetPhases() {}
}

/// Wall-clock seconds since `start`. The wall-clock edge: a bench's phases are the
/// processor's time, not the world's.
func wallSeconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
