@testable import BLECommandLine
import BLESystems
import Foundation
import Testing

/// `ble sim run` of a field system's scenario prints the library's story (BLESystems), line
/// for line, and refuses what a system's run cannot do.
@Suite("ble sim run of a field system", .timeLimit(.minutes(10)))
struct SimRunSystemTests {
    @Test("ble sim run ride-log prints the ride log's story exactly as the library tells it", arguments: ["ride-log", "bus-fleet"])
    func printsTheStory(name: String) async throws {
        let command = try SimRunCommand.parse([name])
        let printed = try await command.systemLines(loadScenario(name))
        let run = try await FieldSystems.run(SystemSetup(named: name))
        // The heading, then the story's lines in order, each with its actor, who, text and
        // time: a phone's app on the main actor reaches `URLSession.data(for:)` at the virtual
        // time it made the call (MainActorHops), so the ride log's times are exact too.
        #expect(printed.first == run.heading)
        #expect(printed == [run.heading] + run.story.map(\.description))
        #expect(printed.first?.hasPrefix("Scenario \"\(run.scenario)\" (system \(run.system)), seed \(run.seed)") == true)
    }

    @Test("--json prints one object per story line with its time, actor, who and text; --seed and --until reach the run")
    func json() async throws {
        let command = try SimRunCommand.parse(["bus-fleet", "--json", "--seed", "5", "--until", "60"])
        let printed = try await command.systemLines(loadScenario("bus-fleet"))
        let run = try await FieldSystems.run(SystemSetup(named: "bus-fleet", seed: 5, seconds: 60))
        #expect(run.seed == 5 && run.seconds == 60)
        #expect(printed.count == run.story.count)
        for (line, story) in zip(printed, run.story) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["actor"] as? String == story.actor.rawValue)
            #expect(object["who"] as? String == story.who)
            #expect(object["text"] as? String == story.text)
            #expect(abs((object["time"] as? Double ?? -1) - Double(story.time) / 1e6) < 1e-6)
            #expect(story.time <= 60_000_000)
        }
    }

    @Test("A field system's run refuses --speed and --snoop, and --store is refused for a scenario with no system")
    func refuses() async throws {
        let speed = await #expect(throws: CommandFailure.self) {
            _ = try await SimRunCommand.parse(["ride-log", "--speed", "1"]).systemLines(loadScenario("ride-log"))
        }
        #expect(speed?.description.contains("leave out --speed") == true)
        await #expect(throws: CommandFailure.self) {
            _ = try await SimRunCommand.parse(["ride-log", "--snoop", "/tmp/x"]).systemLines(loadScenario("ride-log"))
        }
        let store = await #expect(throws: CommandFailure.self) {
            try await SimRunCommand.parse(["walk", "--store", "/tmp/fleet.sqlite"]).run()
        }
        #expect(store?.description.contains("leave out --store") == true)
    }
}
