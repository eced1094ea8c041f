import BLESystems
import BLEWorld

/// `ble sim run` of a field system's scenario (one with `system:`, docs/systems.md): the
/// library (BLESystems) plays the world, the gateways into a SQLite store, the back end, the
/// phones and their apps; this prints the story it returns.
extension SimRunCommand {
    /// Runs `scenario`'s field system and prints its story.
    func runSystem(_ scenario: Scenario) async throws {
        for line in try await systemLines(scenario) { print(line) }
    }

    /// What ``runSystem(_:)`` prints: a heading and one line per story line, or one JSON
    /// object per story line with `--json`.
    func systemLines(_ scenario: Scenario) async throws -> [String] {
        if speed != nil {
            throw CommandFailure("Scenario \"\(scenario.name)\" plays the field system \(scenario.system ?? "") as fast as possible; leave out --speed.")
        }
        if snoop != nil {
            throw CommandFailure("Scenario \"\(scenario.name)\" plays the field system \(scenario.system ?? ""), which writes no captures; leave out --snoop.")
        }
        let run: SystemRun
        do {
            let setup = try SystemSetup(named: self.scenario, seed: seed, seconds: until, storePath: store)
            run = try await FieldSystems.run(setup)
        } catch let error as SystemError {
            throw CommandFailure(String(error.description.prefix(1)).uppercased() + String(error.description.dropFirst()) + ".")
        }
        return Self.lines(of: run, json: json)
    }

    /// The printed form of a system's run.
    static func lines(of run: SystemRun, json: Bool) -> [String] {
        json ? run.story.map(\.json.text) : [run.heading] + run.story.map(\.description)
    }
}
