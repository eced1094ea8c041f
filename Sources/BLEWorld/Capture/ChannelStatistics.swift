/// What happened on each radio channel of a world: how much the 37 secondary (data)
/// channels carry beside the 3 primary advertising channels once extended advertising moves
/// its data there (Core 5.4, Vol 6, Part B, §1.4.1 numbers them 0–36 and 37–39). Counted
/// alongside ``WorldStatistics``, so a test or a benchmark can split its counters by channel.
public struct ChannelStatistics: Hashable, Sendable {
    /// Packets put on the air, by channel index (0–39).
    public var transmissions = Array(repeating: 0, count: 40)
    /// Packets delivered to a receiver, by channel index.
    public var receptions = Array(repeating: 0, count: 40)
    /// Receptions lost to overlapping transmissions (no capture), by channel index.
    public var collisions = Array(repeating: 0, count: 40)

    /// All counters zero.
    public init() {}

    /// The primary advertising channels' indices.
    public static let primary = 37 ... 39
    /// The secondary advertising and data channels' indices.
    public static let secondary = 0 ... 36

    /// The sum of `counters` over `channels`.
    public static func sum(_ counters: [Int], over channels: ClosedRange<Int>) -> Int {
        channels.reduce(0) { $0 + (counters.indices.contains($1) ? counters[$1] : 0) }
    }

    /// Counts one event of `counters` on `channel`, ignoring an index outside 0–39.
    static func count(_ counters: inout [Int], channel: Int) {
        if counters.indices.contains(channel) { counters[channel] += 1 }
    }
}
