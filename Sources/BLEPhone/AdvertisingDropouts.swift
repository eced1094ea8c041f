/// Pauses of an off-screen app's advertising (research §9, rule 12, `bgAdvDropout`): Apple
/// says background advertising is best effort and "may slow down or stop for short periods"
/// when other apps or the system need the radio (research §4, Apple Developer Forums
/// thread 814450). No one published how long or how often, so both are parameters, drawn
/// uniformly with the phone's seed; a fault for a scenario's phone to switch on
/// (``PhonePolicy/backgroundAdvertisingDropouts``), off by default.
public struct AdvertisingDropouts: Hashable, Sendable {
    /// How long the advertising runs before each pause, in microseconds.
    public var between: ClosedRange<Int64>
    /// How long each pause lasts, in microseconds.
    public var pause: ClosedRange<Int64>

    /// Dropouts with every value given.
    public init(between: ClosedRange<Int64>, pause: ClosedRange<Int64>) {
        self.between = between
        self.pause = pause
    }

    /// Runs of 20 s to 1 min, pauses of 1 to 5 s: "short periods", our choice of numbers.
    public static let occasional = AdvertisingDropouts(between: 20_000_000 ... 60_000_000, pause: 1_000_000 ... 5_000_000)
}

/// The seeded succession of runs and pauses of ``AdvertisingDropouts`` from the moment an
/// app's advertising went off screen: a value that a test can replay.
public struct AdvertisingDropoutSchedule: Hashable, Sendable {
    /// Whether the advertising is on air at a moment, and until when.
    public struct Phase: Hashable, Sendable {
        /// Whether the advertising is on air (not paused).
        public var advertising: Bool
        /// When that changes, in microseconds of the phone's clock.
        public var changesAt: Int64

        /// A phase with every value given.
        public init(advertising: Bool, changesAt: Int64) {
            self.advertising = advertising
            self.changesAt = changesAt
        }
    }

    /// The numbers drawn from.
    public let dropouts: AdvertisingDropouts
    private var random: UInt64
    /// The phase in force and when it began.
    private var phase: Phase
    private var began: Int64

    /// The schedule of advertising that went off screen at `start`: a run first.
    public init(_ dropouts: AdvertisingDropouts, seed: UInt64, start: Int64) {
        self.dropouts = dropouts
        random = seed
        began = start
        phase = Phase(advertising: true, changesAt: start)
        phase.changesAt = start + draw(dropouts.between)
    }

    /// The phase at `time` (not earlier than the last asked for): the schedule moves on
    /// through the runs and pauses that ended before it.
    public mutating func phase(at time: Int64) -> Phase {
        while phase.changesAt <= time {
            began = phase.changesAt
            let advertising = !phase.advertising
            phase = Phase(advertising: advertising, changesAt: began + draw(advertising ? dropouts.between : dropouts.pause))
        }
        return phase
    }

    /// A value drawn uniformly from `range` (SplitMix64), at least 1 µs so time moves on.
    private mutating func draw(_ range: ClosedRange<Int64>) -> Int64 {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let span = UInt64(max(0, range.upperBound - range.lowerBound)) + 1
        return max(1, range.lowerBound + Int64(z % span))
    }
}
