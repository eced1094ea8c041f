import BLE
import BLETime
import BLEWorld

/// `ble sim run` of a scenario whose phone runs programs (apps with `program:`): plays the
/// phone's story (``BLE/PhoneStory``) with the programs this command knows
/// (``PhonePrograms``) and prints it.
extension SimRunCommand {
    /// Runs `scenario` until `limit` (µs) with its phone's programs and prints the story.
    func runPhone(_ scenario: Scenario, until limit: Int64, speed: Double) async throws {
        let player = PhonePrograms.story
        do {
            try player.check(scenario)
        } catch {
            throw CommandFailure(error.description)
        }
        let simulation: Simulation
        do {
            simulation = try Simulation(speed: speed, seed: scenario.seed, waitsForMainQueue: true, name: "ble-sim-run")
        } catch {
            throw CommandFailure("The simulated world could not start: \(error).")
        }
        let snoopPath = snoop
        let story: [PhoneStoryLine]
        do {
            story = try await simulation.run {
                try await player.play(scenario, until: limit, snoop: snoopPath)
            }
        } catch let error as PhoneStoryError {
            await simulation.finish()
            throw CommandFailure(error.description)
        }
        await simulation.finish()
        if json {
            for line in story { print(line.json.text) }
        } else {
            print("Scenario \"\(scenario.name)\", seed \(scenario.seed), \((Double(limit) / 1_000_000).formatted(decimals: 1)) s simulated")
            for line in story { print(line.text) }
        }
    }
}
