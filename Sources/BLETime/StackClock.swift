#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one clock a stack keeps time by (DESIGN.md, "Determinism, one clock"): the host's
/// timers, the front door's and the compatibility layers' timeouts, an app's pauses all read
/// and sleep on the clock they were given, never on the wall clock directly.
///
/// Time is a count of microseconds from the clock's own origin. A ``WallClock`` counts the
/// machine's monotonic time (real controllers); a ``VirtualClock`` counts a
/// ``Simulation``'s time, which moves only when everything in the simulation waits, so a
/// simulated world, its hosts and their apps run as fast as the processor allows and give
/// the same timeline on an idle and on a loaded machine.
public protocol StackClock: Sendable {
    /// Microseconds since the clock's origin; never decreases.
    var microseconds: Int64 { get }
    /// Suspends the calling task until the clock reads `deadline` (at once if it already
    /// does).
    /// - Throws: `CancellationError` when the task is cancelled first.
    func sleep(untilMicroseconds deadline: Int64) async throws
}

extension StackClock {
    /// Suspends the calling task for `duration` on this clock.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleep(untilMicroseconds: microseconds + duration.wholeMicroseconds)
    }

    /// Suspends the calling task for `seconds` on this clock.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(seconds: Double) async throws {
        try await sleep(untilMicroseconds: microseconds + Int64((seconds * 1e6).rounded()))
    }

    /// Seconds on this clock since `start` (a ``microseconds`` reading).
    public func seconds(since start: Int64) -> Double {
        Double(microseconds - start) / 1e6
    }
}

extension Duration {
    /// The duration in whole microseconds, rounded towards zero.
    public var wholeMicroseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000 + parts.attoseconds / 1_000_000_000_000
    }
}

/// The machine's monotonic clock (`CLOCK_BOOTTIME` on Linux, which is what
/// `ContinuousClock` reads): the clock of a stack on a real controller, where time is the
/// radio's and nobody can stop it. This is the wall-clock edge of the stack: the one place
/// that reads the machine's time and sleeps on it.
public struct WallClock: StackClock {
    /// The wall clock.
    public init() {}

    public var microseconds: Int64 { Self.monotonicMicroseconds() }

    public func sleep(untilMicroseconds deadline: Int64) async throws {
        let remaining = deadline - microseconds
        guard remaining > 0 else {
            try Task.checkCancellation()
            return
        }
        // The wall-clock edge: a real controller's time passes whether or not we wait.
        try await Task.sleep(for: .microseconds(remaining), tolerance: .microseconds(500), clock: .continuous)
    }

    /// The monotonic time in microseconds, read straight from the kernel without the
    /// 128-bit arithmetic of `Duration` (a host reads it for every packet).
    public static func monotonicMicroseconds() -> Int64 {
        #if os(Linux)
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
        #else
        // The wall-clock edge on other systems: `ContinuousClock` from a fixed reference.
        return (ContinuousClock.now - reference).wholeMicroseconds
        #endif
    }

    #if !os(Linux)
    private static let reference = ContinuousClock.now
    #endif
}
