/// How well one algorithm's reported zones followed the truth, over every identity scored.
///
/// ``PresenceScorer`` computes it; its doc comment states the rules. Times are seconds.
public struct PresenceScore: Hashable, Sendable, Codable {
    /// The algorithm scored.
    public var algorithm: String
    /// Share (0…1) of the scored time during which the reported zone equals the true one, no
    /// zone counting as a zone.
    public var timeInTrueZone: Double
    /// Delays from true entries to reported ones (missed entries included, see ``PresenceScorer``).
    public var entryLag: LagSummary
    /// Delays from true exits to reported ones (missed exits included).
    public var exitLag: LagSummary
    /// ``flaps`` per hour of scored time.
    public var flapsPerHour: Double
    /// True entries into a zone.
    public var entries: Int
    /// True exits from a zone.
    public var exits: Int
    /// True entries never reported while the truth lasted.
    public var missedEntries: Int
    /// True exits never reported before the truth returned or the scoring ended.
    public var missedExits: Int
    /// Reported zone changes that no true change explains.
    public var flaps: Int
    /// Scored time in hours, summed over identities.
    public var hours: Double

    /// A score from its parts.
    public init(
        algorithm: String, timeInTrueZone: Double, entryLag: LagSummary, exitLag: LagSummary, flapsPerHour: Double,
        entries: Int, exits: Int, missedEntries: Int, missedExits: Int, flaps: Int, hours: Double
    ) {
        self.algorithm = algorithm
        self.timeInTrueZone = timeInTrueZone
        self.entryLag = entryLag
        self.exitLag = exitLag
        self.flapsPerHour = flapsPerHour
        self.entries = entries
        self.exits = exits
        self.missedEntries = missedEntries
        self.missedExits = missedExits
        self.flaps = flaps
        self.hours = hours
    }
}

/// The median and 95th percentile of a set of lags (nearest rank), `nil` when there are none.
public struct LagSummary: Hashable, Sendable, Codable {
    /// 50th percentile in seconds.
    public var median: Double?
    /// 95th percentile in seconds.
    public var p95: Double?
    /// How many lags were summarised.
    public var count: Int

    /// The summary of `lags`.
    public init(lags: [Double]) {
        median = NearestRank.percentile(50, of: lags)
        p95 = NearestRank.percentile(95, of: lags)
        count = lags.count
    }
}

/// Percentiles by the nearest-rank method: the p-th percentile of n sorted values is the value of
/// rank ⌈p/100 · n⌉ (at least 1), always one of the values and never interpolated.
public enum NearestRank {
    /// The `percentile`-th (0…100) percentile of `values`, or `nil` when there are none.
    public static func percentile(_ percentile: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((min(max(percentile, 0), 100) / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
