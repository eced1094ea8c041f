import Foundation

/// What the ride log asks of the operating system besides Core Location and notifications:
/// the time, a pause between retries, and background time to finish a post. On an iPhone
/// these are `Date()`, `Task.sleep` and `UIApplication`'s `beginBackgroundTask` /
/// `endBackgroundTask`; in a simulation they are the phone's virtual clock and its
/// background-task rule, so a run is deterministic.
public struct RideLogSystem: Sendable {
    /// Now.
    public var now: @Sendable () -> Date
    /// Waits `duration` (between retries of a post).
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Asks for background time to finish posting (iOS grants about 30 s).
    public var beginBackgroundTask: @MainActor @Sendable () -> Void
    /// Gives the background time back.
    public var endBackgroundTask: @MainActor @Sendable () -> Void

    /// A system with every function given.
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void,
                beginBackgroundTask: @escaping @MainActor @Sendable () -> Void, endBackgroundTask: @escaping @MainActor @Sendable () -> Void) {
        self.now = now
        self.sleep = sleep
        self.beginBackgroundTask = beginBackgroundTask
        self.endBackgroundTask = endBackgroundTask
    }

    /// The real one: the wall clock, `Task.sleep`, and no background task (an app on an
    /// iPhone passes `UIApplication`'s here).
    public static let standard = RideLogSystem(now: { Date() }, sleep: { try await Task.sleep(for: $0) },
                                               beginBackgroundTask: {}, endBackgroundTask: {})

    /// Now in microseconds since 1970, as the back end's times are.
    func microseconds() -> Int64 {
        Int64((now().timeIntervalSince1970 * 1_000_000).rounded())
    }
}
