/// When a ``BeaconMonitor`` reports a departure from a region, and whether it reports it at
/// all. iOS reports a beacon region's exit some time after the last packet: about 30 s as a
/// rule, sometimes minutes later, and sometimes never. Radius Networks measured a mean of
/// 35–42 s with no exit at all in 1 of 6 to 7 of 10 trials (iOS 8.3, 2015), then mostly
/// 20–30 s, some over 2 minutes and some never (iOS 10.3.1, 2017); iOS research §7 and §9,
/// rule 21.
///
/// Each departure is drawn with the monitor's seeded sequence, so a run repeats: its exit
/// comes the exit period after the last packet, or, with ``lateProbability``, later by an
/// amount drawn uniformly from ``lateBy``; and with ``missProbability`` it never comes, the
/// region staying inside (``BeaconMonitor``). The default, ``punctual``, reports every exit
/// exactly one exit period after the last packet, as a Linux program expects.
public struct ExitTiming: Hashable, Sendable {
    /// The share of departures whose exit comes late, from 0 (none, the default) to 1 (all).
    public var lateProbability: Double
    /// How much later than the exit period a late exit comes, drawn uniformly (default 0 s to
    /// 90 s: with a 30 s exit period, late exits come 30 s to 2 min after the last packet).
    public var lateBy: ClosedRange<Duration>
    /// The share of departures whose exit never comes, from 0 (none, the default) to 1 (all).
    public var missProbability: Double
    /// The seed of the draws: the same seed and inputs give the same exits.
    public var seed: UInt64

    /// A timing; by default every exit is punctual and none is missed.
    public init(lateProbability: Double = 0, lateBy: ClosedRange<Duration> = .zero ... .seconds(90),
                missProbability: Double = 0, seed: UInt64 = 0) {
        self.lateProbability = lateProbability
        self.lateBy = lateBy
        self.missProbability = missProbability
        self.seed = seed
    }

    /// Every exit exactly one exit period after the last packet, none missed.
    public static let punctual = ExitTiming()
}

/// The seeded sequence of a monitor's draws: SplitMix64, as the simulated phone draws its
/// entry delays, so a seed gives the same exits on every run and machine.
struct ExitDraws: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Whether an event of `probability` happens; nothing is drawn for a probability of 0 or
    /// less, so a punctual monitor draws nothing.
    mutating func happens(_ probability: Double) -> Bool {
        guard probability > 0 else { return false }
        return Double(next() >> 11) * 0x1p-53 < probability
    }

    /// A whole number of microseconds drawn uniformly from `range`.
    mutating func microseconds(in range: ClosedRange<Duration>) -> Int64 {
        let low = range.lowerBound.beaconMicroseconds, high = range.upperBound.beaconMicroseconds
        guard high > low else { return low }
        return low &+ Int64(next() % UInt64(high - low + 1))
    }
}
