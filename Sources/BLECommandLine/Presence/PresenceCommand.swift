import ArgumentParser
import BLEFleetSimulation
import BLEFleetStore
import BLELogging
import BLEPresence
import BLEScenarios
import BLEWorld
import Foundation

/// `ble presence`: zones from sightings (docs/gateway.md, "Presence").
struct PresenceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presence",
        abstract: "Presence from a fleet's sightings: score the algorithms against a simulated world's truth.",
        subcommands: [PresenceScoreCommand.self]
    )
}

/// `ble presence score SCENARIO`: the three algorithms' score table on a scenario's fleet.
struct PresenceScoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Run a scenario's gateways into a store and score each presence algorithm against the world's truth.",
        discussion: """
            SCENARIO is a bundled fleet scenario (bus-fleet, shop, flat) or a YAML file whose scanning devices have \
            gateway: {zone: …} and whose zones: say where each zone is. Columns: the share of time each algorithm's \
            zone is the true one, entry and exit lag (median and 95th percentile), and flaps per hour (reported \
            changes the truth does not explain). See docs/presence.md for the rules.
            """
    )

    @Argument(help: "A bundled fleet scenario's name or a scenario file.")
    var scenario: String

    @Option(help: "The store the sightings go through (default: a temporary SQLite file).")
    var database: String?

    @Option(help: "The world's seed (default: the scenario's).")
    var seed: UInt64?

    @Option(help: "Simulated seconds to score (default: the scenario's duration).")
    var until: Double?

    @Option(help: "Our algorithm ignores sightings weaker than this, in dBm.")
    var minimumRssi: Double = FleetPresenceScoring.defaultMinimumRSSI

    @Flag(help: "One JSON object with the scores instead of the table.")
    var json = false

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        var loaded: Scenario
        do {
            loaded = FileManager.default.fileExists(atPath: scenario) ? try ScenarioLoader.load(path: scenario)
                : try BundledScenarios.scenario(named: scenario)
        } catch {
            throw CommandFailure("\(error)")
        }
        if let seed { loaded.seed = seed }
        if let until, !(until.isFinite && until > 0) { throw ValidationError("--until must be a positive number of seconds") }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("ble-presence-\(getpid()).sqlite").path
        let url = database ?? "sqlite:" + temporary
        defer { if database == nil { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) } } }
        let store: any FleetStore
        do {
            store = try await FleetStores.open(url, logger: BLELog.logger("store"))
        } catch {
            throw CommandFailure("\(error)")
        }
        let parameters = HysteresisPresence.Parameters(minimumRSSI: minimumRssi)
        let result: FleetScoreRun.Result
        do {
            result = try await FleetScoreRun.run(scenario: loaded, store: store, duration: until,
                                                 algorithms: { FleetPresenceScoring.standardAlgorithms(zones: $0, parameters: parameters) })
        } catch {
            await store.close()
            throw CommandFailure("\(error)")
        }
        await store.close()
        let table = PresenceScoreTable(result.outcomes.map(\.score))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            struct Output: Encodable {
                var scenario: String
                var seed: UInt64
                var seconds: Double
                var sightings: Int
                var identities: [String]
                var scores: PresenceScoreTable
            }
            let output = Output(scenario: result.scenario, seed: result.seed, seconds: result.duration, sightings: result.sightings,
                                identities: result.identities, scores: table)
            print(String(decoding: try encoder.encode(output), as: UTF8.self))
        } else {
            print("Scenario \"\(result.scenario)\", seed \(result.seed), \(String(format: "%.1f", result.duration)) s simulated: "
                  + "\(result.sightings) sightings of \(result.identities.count) identities")
            print(table.text)
        }
    }
}
