import BLEScenarios
import BLEWorld
import Testing

/// A runner that streams hands out what a timeline would hold and keeps none of it, so that
/// a long run's memory follows its world, not its simulated time (issue 31, item 4).
@Suite("Streaming a scenario's timeline")
struct ScenarioStreamingTests {
    /// A bundled scenario run to `seconds` with its events and receptions streamed:
    /// the runner afterwards, and what was handed out, in the order it was.
    func streamed(_ name: String, until seconds: Double) throws
        -> (runner: ScenarioRunner, events: [ScenarioTimelineEvent], receptions: [BeaconReception]) {
        let scenario = try BundledScenarios.scenario(named: name)
        // The handlers run on the world's one thread, during `run(until:)`.
        final class Collected {
            var events: [ScenarioTimelineEvent] = []
            var receptions: [BeaconReception] = []
        }
        let collected = Collected()
        let runner = try ScenarioRunner(scenario: scenario, recording: .streaming(events: { collected.events.append($0) },
                                                                                   receptions: { collected.receptions.append($0) }))
        _ = runner.run(until: seconds)
        return (runner, collected.events, collected.receptions)
    }

    @Test("A streamed run hands out every event and reception of the kept timeline, scripted actions and apps included")
    func streamedMatchesTimeline() throws {
        let kept = try runBundled("bus-stop-pocket")
        let (runner, events, receptions) = try streamed("bus-stop-pocket", until: 60)
        #expect(!kept.events.isEmpty && !kept.receptions.isEmpty)
        #expect(kept.events.contains { if case .action = $0.kind { true } else { false } })
        #expect(kept.events.contains { if case .app = $0.kind { true } else { false } })
        // Exits and passes are stamped with the moment they describe, so only the sets compare.
        #expect(events.map(ScenarioTimeline.line).sorted() == kept.events.map(ScenarioTimeline.line).sorted())
        #expect(receptions == kept.receptions)
        #expect(runner.timeline.events.isEmpty && runner.timeline.receptions.isEmpty)
    }

    @Test("A streaming runner holds no event or reception after three simulated minutes of a bus route; a keeping one holds them all")
    func streamingHoldsNothing() throws {
        let (streaming, events, receptions) = try streamed("bus-route", until: 180)
        #expect(!events.isEmpty && !receptions.isEmpty)
        #expect(streaming.heldRecords == 0)
        let keeping = try ScenarioRunner(scenario: BundledScenarios.scenario(named: "bus-route"))
        let timeline = keeping.run(until: 180)
        #expect(keeping.heldRecords == timeline.events.count + timeline.receptions.count)
        #expect(keeping.heldRecords == events.count + receptions.count)
    }

    @Test("A streaming runner without a reception handler builds no receptions and still hands out every event")
    func eventsOnly() throws {
        let kept = try runBundled("bus-stop")
        let scenario = try BundledScenarios.scenario(named: "bus-stop")
        var count = 0
        let runner = try ScenarioRunner(scenario: scenario, recording: .streaming(events: { _ in count += 1 }))
        _ = runner.run(until: scenario.durationSeconds ?? 60)
        #expect(count == kept.events.count && count > 0)
        #expect(runner.heldRecords == 0)
    }
}
