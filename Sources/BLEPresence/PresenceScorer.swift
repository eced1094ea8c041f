/// Scores reported zone timelines against true ones.
///
/// The truth is one ``ZoneTimeline`` per identity (change points; `nil` = outside every zone).
/// Each identity in the truth is scored over `[start, end)`; reported identities absent from the
/// truth are ignored, and an identity never reported is in no zone throughout. The rules:
///
/// - **Time in the true zone**: the exact share of scored time (summed over identities) during
///   which the reported zone equals the true one, `nil` included; computed on the merged change
///   points, not by sampling.
/// - **Entry lag**: for each true change into a zone Z at τ in `[start, end)`, lasting until the
///   next true change τ′ (or `end`): the first instant in `[τ, τ′)` at which Z is reported, minus
///   τ (0 when Z is already reported at τ). If Z is never reported in `[τ, τ′)` the entry is
///   **missed** and its lag is τ′ − τ, the truth's remaining duration.
/// - **Exit lag**: for each true change out of a zone Z at τ: the first instant at which the
///   reported zone is not Z, searched in `[τ, τ′)` where τ′ is the truth's next return to Z (or
///   `end`); if none, the exit is **missed** and its lag is τ′ − τ.
/// - **Flaps**: a reported change to zone Z (`nil` included) at t is explained by a true change
///   to Z at τ with p < τ ≤ t + ``tolerance``, where p is the time of the previous reported
///   change (−∞ for the first); each true change explains at most one reported change (the
///   earliest such τ is used). Unexplained reported changes are flaps. A spurious exit and
///   re-entry therefore count as two flaps.
/// - Lags of all identities are pooled before taking percentiles (``NearestRank``).
public struct PresenceScorer: Hashable, Sendable {
    /// Seconds a reported change may precede the true change it is explained by (default 2 s:
    /// the time to cross a doorway).
    public var tolerance: Double

    /// A scorer allowing reported changes to lead true ones by `tolerance` seconds.
    public init(tolerance: Double = 2) {
        self.tolerance = tolerance
    }

    /// Scores `reported` against `truth` over `[start, end)` under the name `algorithm`.
    public func score(
        _ algorithm: String, reported: [String: ZoneTimeline], truth: [String: ZoneTimeline], from start: Double, until end: Double
    ) -> PresenceScore {
        var matched = 0.0
        var scored = 0.0
        var entryLags: [Double] = []
        var exitLags: [Double] = []
        var missedEntries = 0
        var missedExits = 0
        var flaps = 0
        for identity in truth.keys.sorted() where end > start {
            let trueTimeline = truth[identity] ?? ZoneTimeline()
            let reportedTimeline = reported[identity] ?? ZoneTimeline()
            matched += matchedTime(reportedTimeline, trueTimeline, from: start, until: end)
            scored += end - start
            let trueChanges = trueTimeline.changes.enumerated().filter { $0.element.time >= start && $0.element.time < end }
            for (index, change) in trueChanges {
                let next = index + 1 < trueTimeline.changes.count ? min(trueTimeline.changes[index + 1].time, end) : end
                if let zone = change.zone {
                    let lag = firstInstant(in: reportedTimeline, from: change.time, before: next) { $0 == zone }
                    entryLags.append(lag ?? next - change.time)
                    if lag == nil { missedEntries += 1 }
                }
                if index > 0, let left = trueTimeline.changes[index - 1].zone {
                    let back = trueTimeline.changes[(index + 1)...].first { $0.zone == left }.map { min($0.time, end) } ?? end
                    let lag = firstInstant(in: reportedTimeline, from: change.time, before: back) { $0 != left }
                    exitLags.append(lag ?? back - change.time)
                    if lag == nil { missedExits += 1 }
                }
            }
            flaps += unexplainedChanges(reportedTimeline, trueTimeline, from: start, until: end)
        }
        let hours = scored / 3600
        return PresenceScore(
            algorithm: algorithm, timeInTrueZone: scored > 0 ? matched / scored : 0,
            entryLag: LagSummary(lags: entryLags), exitLag: LagSummary(lags: exitLags),
            flapsPerHour: hours > 0 ? Double(flaps) / hours : 0,
            entries: entryLags.count, exits: exitLags.count, missedEntries: missedEntries, missedExits: missedExits,
            flaps: flaps, hours: hours)
    }

    /// Seconds in `[start, end)` during which both timelines hold the same zone.
    func matchedTime(_ reported: ZoneTimeline, _ truth: ZoneTimeline, from start: Double, until end: Double) -> Double {
        let inside = (reported.changes + truth.changes).map(\.time).filter { $0 > start && $0 < end }
        let bounds = ([start] + inside + [end]).sorted()
        var matched = 0.0
        for (from, to) in zip(bounds, bounds.dropFirst()) where to > from && reported.zone(at: from) == truth.zone(at: from) {
            matched += to - from
        }
        return matched
    }

    /// Seconds from `from` to the first instant in `[from, before)` whose reported zone passes
    /// `test`, or `nil` if there is none.
    func firstInstant(in reported: ZoneTimeline, from: Double, before: Double, where test: (String?) -> Bool) -> Double? {
        guard from < before else { return nil }
        if test(reported.zone(at: from)) { return 0 }
        let later = reported.changes.first { $0.time > from && $0.time < before && test($0.zone) }
        return later.map { $0.time - from }
    }

    /// How many reported changes in `[start, end)` no true change explains (rule in the type's doc).
    func unexplainedChanges(_ reported: ZoneTimeline, _ truth: ZoneTimeline, from start: Double, until end: Double) -> Int {
        var used = Set<Int>()
        var previous = -Double.infinity
        var unexplained = 0
        for change in reported.changes {
            defer { previous = change.time }
            guard change.time >= start && change.time < end else { continue }
            let explanation = truth.changes.indices.first { index in
                let candidate = truth.changes[index]
                return !used.contains(index) && candidate.zone == change.zone
                    && candidate.time > previous && candidate.time <= change.time + tolerance
            }
            if let explanation { used.insert(explanation) } else { unexplained += 1 }
        }
        return unexplained
    }
}
