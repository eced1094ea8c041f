/// The chat engine's sense of time: how long since it started, and how to wait. The app
/// keeps the process's continuous clock; a test on a simulated phone gives the simulation's
/// virtual clock, so heartbeats and re-sends follow the simulated world.
public struct ChatTime: Sendable {
    /// Time since the engine started.
    public var now: @Sendable () -> Duration
    /// Waits about that long.
    public var sleep: @Sendable (Duration) async -> Void

    /// A time source of these two functions.
    public init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The process's continuous clock, from now.
    public static func continuous() -> ChatTime {
        let origin = ContinuousClock.now
        return ChatTime(now: { ContinuousClock.now - origin }, sleep: { try? await Task.sleep(for: $0) })
    }
}
