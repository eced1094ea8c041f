import ArgumentParser
import BLEController
import BLEScenarios
import BLEWire
import BLEWorld
import Foundation

/// `ble sim run SCENARIO`: runs a world headless, as fast as possible, and reports what the
/// hosts saw; the same scenario and seed give the same output every time. A scenario whose
/// devices observe beacons prints its timeline (BLEScenarios) instead of HCI events.
struct SimRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario headless as fast as possible and print its timeline or the HCI events of interest."
    )

    @Argument(help: "A scenario file (.yaml) or a built-in scenario: neighbourhood, empty, walk, bus-stop, bus-route, crowd, car.")
    var scenario: String

    @Option(help: "The world's seed (default: the scenario's).")
    var seed: UInt64?

    @Option(help: "Simulated seconds to run (default: the scenario's duration, else 10).")
    var until: Double?

    @Option(help: "Write DIR/<device>.btsnoop for every device.")
    var snoop: String?

    @Flag(help: "One JSON object per line and event: time, device, event.")
    var json = false

    func validate() throws {
        if let until, !(until.isFinite && until >= 0 && until <= 1_000_000) {
            throw ValidationError("--until must be between 0 and 1000000 seconds.")
        }
    }

    func run() async throws {
        var scenario = try loadScenarioOrBundled(self.scenario)
        if let seed { scenario.seed = seed }
        let until = self.until ?? scenario.durationSeconds ?? 10
        if ScenarioRunner.hasObservers(scenario) {
            try createSnoopDirectory()
            try runTimeline(scenario, until: until)
            return
        }
        try createSnoopDirectory()
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing,
                                                            radio: scenario.radio))
        let built: BuiltScenario
        do {
            built = try scenario.build(into: world)
        } catch {
            throw CommandFailure(error.description)
        }
        let json = self.json
        var counts: [String: Int] = [:]
        built.onHostPacket = { [unowned world] device, packet in
            let name = built.name(of: device) ?? "device-\(device.rawValue)"
            if json {
                if let entry = SimulationLog.entry(time: world.now, device: name, packet: packet) { print(entry.text) }
            } else if SimulationLog.entry(time: world.now, device: name, packet: packet) != nil {
                counts[name, default: 0] += 1
            }
        }
        built.onLog = { printError($0) }
        let limit = Microseconds((until * 1_000_000).rounded())
        // Headless and as fast as possible: nothing comes from outside, so the world runs
        // straight through on this task, deterministically.
        world.run(until: limit)
        if !json {
            print("Scenario \"\(scenario.name)\", seed \(scenario.seed), \(SimulationLog.seconds(limit)) s simulated")
            for device in scenario.devices {
                let host: String
                switch device.host {
                case .scripted:
                    let failed = built.failures.contains { $0.deviceName == device.name }
                    host = failed ? "scripted host (failed)" : "scripted host"
                case .gatt:
                    // A headless run has no wall-clock host to serve GATT: a scripted stand-in advertises.
                    host = "GATT device, advertising only (\(device.gatt.joined(separator: ", ")) served with --hci sim)"
                case .external: host = "external host (none attached)"
                case .none: host = "no host"
                }
                print("  \(device.name)  \(device.address) (\(device.address.kind == .random ? "random" : "public"))  "
                      + "\(host), \(counts[device.name] ?? 0) events")
            }
        }
        try writeSnoops(scenario, built: built, world: world)
    }

    private func createSnoopDirectory() throws {
        guard let snoop else { return }
        do {
            try FileManager.default.createDirectory(atPath: snoop, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("Cannot create the snoop directory \(snoop): \(error.localizedDescription); "
                                 + "choose a writable path.")
        }
    }

    /// Writes DIR/<device>.btsnoop for every device when `--snoop DIR` was given.
    private func writeSnoops(_ scenario: Scenario, built: BuiltScenario, world: World) throws {
        guard let snoop else { return }
        for (device, id) in zip(scenario.devices, built.deviceIDs) {
            let bytes = world.snoop(of: id)
            let path = snoop + "/" + fileName(device.name) + ".btsnoop"
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw CommandFailure("Cannot write \(path); check that the directory is writable.")
            }
        }
    }

    /// Runs a scenario with observers and prints its timeline: readable lines, or one JSON
    /// object per event with `--json`.
    private func runTimeline(_ scenario: Scenario, until: Double) throws {
        let runner: ScenarioRunner
        do {
            runner = try ScenarioRunner(scenario: scenario, capturesHCI: snoop != nil)
        } catch {
            throw CommandFailure(error.description)
        }
        runner.built.onLog = { printError($0) }
        let timeline = runner.run(until: until)
        if json {
            for line in timeline.jsonLines { print(line) }
        } else {
            print(timeline.text)
        }
        try writeSnoops(scenario, built: runner.built, world: runner.world)
    }

    /// A bundled field scenario (`walk`, `bus-stop`, …), a built-in one or a file.
    private func loadScenarioOrBundled(_ argument: String) throws -> Scenario {
        if BundledScenarios.names.contains(argument) {
            do {
                return try BundledScenarios.scenario(named: argument)
            } catch {
                throw CommandFailure(error.description)
            }
        }
        return try loadScenario(argument)
    }

    /// A device name as a file name: path separators and control characters become "_".
    private func fileName(_ name: String) -> String {
        String(name.map { $0 == "/" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true ? "_" : $0 })
    }
}
