import BLEPresence
import Foundation
import Testing

@Suite("Scoring")
struct PresenceScorerTests {
    func score(truth: [(time: Double, zone: String?)], reported: [(time: Double, zone: String?)], until end: Double, tolerance: Double = 2) -> PresenceScore {
        PresenceScorer(tolerance: tolerance).score(
            "test", reported: ["p": ZoneTimeline(reported)], truth: ["p": ZoneTimeline(truth)], from: 0, until: end)
    }

    @Test("Truth A then B at 10 s, reported B from 12 s: 90% in the true zone, lags of 2 s, no flap")
    func lateMove() {
        let score = score(truth: [(0, "A"), (10, "B")], reported: [(0, "A"), (12, "B")], until: 20)
        #expect(score.timeInTrueZone == 0.9)
        #expect(score.entries == 2 && score.exits == 1)
        #expect(score.entryLag == LagSummary(lags: [0, 2]))
        #expect(score.entryLag.median == 0 && score.entryLag.p95 == 2)
        #expect(score.exitLag.median == 2 && score.exitLag.p95 == 2)
        #expect(score.flaps == 0 && score.missedEntries == 0 && score.missedExits == 0)
    }

    @Test("An entry never reported while the truth lasts is missed, its lag the truth's duration")
    func missedEntry() {
        let score = score(truth: [(5, "A"), (15, nil)], reported: [], until: 30)
        #expect(score.missedEntries == 1)
        #expect(score.entryLag.median == 10)
        #expect(score.exitLag.median == 0)
        #expect(abs(score.timeInTrueZone - 20.0 / 30) < 1e-12)
    }

    @Test("A missed exit lasts until the truth comes back")
    func missedExit() {
        let score = score(truth: [(0, "A"), (10, "B"), (20, "A")], reported: [(0, "A")], until: 30)
        #expect(score.missedExits == 1 && score.missedEntries == 1)
        #expect(score.exitLag == LagSummary(lags: [10, 0]))
        #expect(score.entryLag == LagSummary(lags: [0, 10, 0]))
    }

    @Test("A spurious exit and re-entry are two flaps")
    func spuriousExit() {
        let score = score(truth: [(0, "A")], reported: [(1, "A"), (100, nil), (103, "A")], until: 3600)
        #expect(score.flaps == 2)
        #expect(score.flapsPerHour == 2)
        #expect(score.hours == 1)
        #expect(score.timeInTrueZone == 3596.0 / 3600)
        #expect(score.entryLag.median == 1)
    }

    @Test("A reported change up to the tolerance before the true one is explained")
    func earlyChange() {
        #expect(score(truth: [(0, "A"), (10, "B")], reported: [(0, "A"), (9, "B")], until: 20).flaps == 0)
        #expect(score(truth: [(0, "A"), (10, "B")], reported: [(0, "A"), (9, "B")], until: 20, tolerance: 0.5).flaps == 1)
    }

    @Test("One true change explains one reported change only")
    func oneExplanationEach() {
        let score = score(truth: [(0, "A"), (10, "B")], reported: [(0, "A"), (11, "B"), (12, "A"), (13, "B")], until: 20)
        #expect(score.flaps == 2)
    }

    @Test("Percentiles take the nearest rank")
    func nearestRank() {
        let values = (1...20).map(Double.init)
        #expect(NearestRank.percentile(50, of: values) == 10)
        #expect(NearestRank.percentile(95, of: values) == 19)
        #expect(NearestRank.percentile(95, of: [5]) == 5)
        #expect(NearestRank.percentile(50, of: []) == nil)
    }

    @Test("A move is an exit then an entry at one time and one change point of the timeline")
    func moveEvents() {
        let events = PresenceEvent.transition(identity: "p", from: "A", to: "B", at: 4)
        #expect(events.map(\.kind) == [.exit("A"), .enter("B")])
        let timeline = ZoneTimeline.timelines(from: [PresenceEvent(time: 1, identity: "p", kind: .enter("A"))] + events)["p"]
        #expect(timeline?.changes == [ZoneTimeline.Change(time: 1, zone: "A"), ZoneTimeline.Change(time: 4, zone: "B")])
        #expect(timeline?.zone(at: 3.9) == "A" && timeline?.zone(at: 4) == "B" && timeline?.zone(at: 0) == nil)
    }

    @Test("The score table lines up its columns, writes missing lags as n/a and round-trips through JSON")
    func table() throws {
        let score = score(truth: [(0, "A"), (10, "B")], reported: [(0, "A"), (12, "B")], until: 20)
        let empty = PresenceScorer().score("none", reported: [:], truth: [:], from: 0, until: 10)
        let table = PresenceScoreTable([score, empty])
        #expect(table.text == """
            algorithm   in zone  entry p50  entry p95  exit p50  exit p95   flaps/h
            test          90.0%      0.0 s      2.0 s     2.0 s     2.0 s       0.0
            none           0.0%        n/a        n/a       n/a       n/a       0.0
            """)
        let json = try JSONEncoder().encode(table)
        #expect(try JSONDecoder().decode(PresenceScoreTable.self, from: json) == table)
    }
}
