import ArgumentParser
import BLE
import BLEAdapter
import BLEController
import BLEHost
import BLEProfiles
import BLEScenarios
import BLEWire
import BLEWorld
import Foundation
import Synchronization

/// `ble sim run SCENARIO`: runs a world headless and reports what the hosts saw. The world,
/// its scripted hosts and the real hosts of its GATT devices (a `ProfilePeripheral` each, as
/// on `--hci sim`) share one ``Simulation``, which runs as fast as possible, so the same
/// scenario and seed give the same output and captures every time; `--speed` spreads the
/// same run over the wall clock for demos. A scenario whose devices observe beacons prints
/// its timeline (BLEScenarios) instead of HCI events, and one whose phone runs programs
/// (apps with `program:`) prints the phone's story (``runPhone(_:until:speed:)``); a field
/// system's scenario (`system:`) prints the system's story (``runSystem(_:)``).
struct SimRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario headless as fast as possible and print its timeline, its field system's story or the HCI events of interest.",
        discussion: """
            The GATT devices of the scenario (devices with gatt: [...]) run their real hosts, as with --hci sim. \
            Without --speed the run takes as little wall-clock time as the processor allows; the same scenario \
            and seed print the same lines and write the same --snoop files every time, at any --speed.
            """
    )

    @Argument(help: ArgumentHelp("A scenario file (.yaml) or a built-in scenario: " + Adapter.scenarioNames.joined(separator: ", ") + ".",
                                 valueName: "scenario"))
    var scenario: String

    @Option(help: "The world's seed (default: the scenario's).")
    var seed: UInt64?

    @Option(help: "Simulated seconds to run (default: the scenario's duration, else 10).")
    var until: Double?

    @Option(help: ArgumentHelp("Simulated seconds per wall-clock second, e.g. 1 for real time "
                               + "(default: max, as fast as possible).", valueName: "x|max"))
    var speed: String?

    @Option(help: "Write DIR/<device>.btsnoop for every device.")
    var snoop: String?

    @Flag(help: "One JSON object per line and event: time, device, event (for a field system: time, actor, who, text).")
    var json = false

    @Option(help: ArgumentHelp("For a field system's scenario (system: ...): keep its fleet store in this SQLite file "
                               + "(default: a temporary file, removed after the run).", valueName: "path"))
    var store: String?

    func validate() throws {
        if let problem = Adapter.scenarioProblem(scenario) { throw ValidationError(problem) }
        if let until, !(until.isFinite && until >= 0 && until <= 1_000_000) {
            throw ValidationError("--until must be between 0 and 1000000 seconds.")
        }
        if let speed, Self.speed(parsing: speed) == nil {
            throw ValidationError("--speed must be a number of simulated seconds per wall-clock second greater than 0 "
                                  + "(e.g. 1 for real time), or max; got \(speed).")
        }
    }

    /// A `--speed` value: `max` (or `inf`) for as fast as possible, else a number above 0;
    /// `nil` for anything else.
    static func speed(parsing text: String) -> Double? {
        if text.lowercased() == "max" { return .infinity }
        guard let value = Double(text), value > 0 else { return nil }
        return value
    }

    @OptionGroup(title: "Energy") var energyOptions: EnergyOptions

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        var scenario = try loadScenario(self.scenario)
        if let seed { scenario.seed = seed }
        let until = self.until ?? scenario.durationSeconds ?? 10
        let speed = self.speed.flatMap(Self.speed(parsing:)) ?? .infinity
        if energyOptions.energy, scenario.system != nil || PhoneStory.isNeeded(for: scenario) {
            throw CommandFailure("--energy reports the devices of a world ble sim run plays itself (beacons, scanners, GATT "
                                 + "devices); scenario \"\(scenario.name)\" tells a \(scenario.system != nil ? "field system's" : "phone's") "
                                 + "story, which it does not cover yet.")
        }
        try energyOptions.check(deviceNames: scenario.devices.map(\.name), scenario: scenario.name)
        if scenario.system != nil {
            try await runSystem(scenario)
            return
        }
        if store != nil {
            throw CommandFailure("Scenario \"\(scenario.name)\" plays no field system (it has no system:), so it has no fleet store; leave out --store.")
        }
        if PhoneStory.isNeeded(for: scenario) {
            // The phone's story holds its own region monitoring (a phone with host: external
            // and observe:), not that of devices without a host.
            if let observer = scenario.devices.first(where: { $0.observing != nil && !PhoneStory.observesOnHost($0) }) {
                throw CommandFailure("Scenario \"\(scenario.name)\" has a beacon observer without a host of its own "
                                     + "(\"\(observer.name)\") and a phone whose host runs programs; ble sim run plays the phone's "
                                     + "story, which holds only that phone's observing: split it into two scenarios.")
            }
            try createSnoopDirectory()
            try await runPhone(scenario, until: Int64((until * 1_000_000).rounded()), speed: speed)
            return
        }
        if ScenarioRunner.hasObservers(scenario) {
            guard !speed.isFinite else {
                throw CommandFailure("Scenario \"\(scenario.name)\" prints a timeline once it has run, so it runs as fast "
                                     + "as possible; leave out --speed.")
            }
            try createSnoopDirectory()
            try runTimeline(scenario, until: until)
            return
        }
        try createSnoopDirectory()
        let limit = Microseconds((until * 1_000_000).rounded())
        let outcome = try await runHosted(scenario, until: limit, speed: speed)
        if !json {
            print("Scenario \"\(scenario.name)\", seed \(scenario.seed), \((Double(limit) / 1_000_000).formatted(decimals: 1)) s simulated")
            for device in scenario.devices {
                let host: String
                switch device.host {
                case .scripted:
                    host = outcome.failed.contains(device.name) ? "scripted host (failed)" : "scripted host"
                case .gatt: host = "GATT host (\(device.gatt.joined(separator: ", ")))"
                case .external: host = "external host (none attached)"
                case .none: host = "no host"
                }
                print("  \(device.name)  \(device.address) (\(device.address.kind == .random ? "random" : "public"))  "
                      + "\(host), \(outcome.counts[device.name] ?? 0) events")
            }
        }
        if energyOptions.energy { energyOptions.report(outcome.energy, seconds: Double(limit) / 1_000_000, json: json) }
        try writeSnoops(scenario, files: outcome.snoops)
    }

    /// What a hosted run leaves behind for the summary and the captures.
    private struct HostedOutcome: Sendable {
        /// HCI events of interest per device name.
        var counts: [String: Int]
        /// The devices whose scripted host had a command refused.
        var failed: Set<String>
        /// Each device's btsnoop file, in scenario order; empty without `--snoop`.
        var snoops: [[UInt8]]
        /// Each device's energy, in scenario order; empty without `--energy`.
        var energy: [DeviceEnergyLine] = []
    }

    /// Runs `scenario` until `limit` on a simulation of its own, with a ``ProfilePeripheral``
    /// on every GATT device: `--json` lines print as the events happen (on the simulation's
    /// thread, in the simulation's order). A finite `speed` paces the run (``pace(_:speed:)``).
    private func runHosted(_ scenario: Scenario, until limit: Microseconds, speed: Double) async throws -> HostedOutcome {
        let simulation: Simulation
        do {
            simulation = try Simulation(seed: scenario.seed, name: "ble-sim-run")
        } catch {
            throw CommandFailure("The simulated world could not start: \(error).")
        }
        defer { simulation.shutdown() }
        let record = SimRunRecord()
        let json = self.json
        let simulated: SimulatedWorld
        do {
            simulated = try SimulatedWorld.build(scenario, on: simulation) { built, world in
                built.onHostPacket = { [unowned built, unowned world] device, packet in
                    let name = built.name(of: device) ?? "device-\(device.rawValue)"
                    guard let entry = SimulationLog.entry(time: world.now, device: name, packet: packet) else { return }
                    record.count(name)
                    if json { print(entry.text) }
                }
                built.onLog = { [unowned built] line in
                    printError(line)
                    record.fail(built.failures.map(\.deviceName))
                }
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        // An unknown service name fails the run before anything starts.
        for port in simulated.peripherals {
            do {
                _ = try port.profileConfiguration.services()
            } catch {
                throw CommandFailure("The simulated world could not start its GATT devices: \(error).")
            }
        }
        let capture = snoop != nil
        let measuresEnergy = energyOptions.energy
        let names = scenario.devices.map(\.name)
        let (snoops, energy) = try await simulation.run { () async throws -> ([[UInt8]], [DeviceEnergyLine]) in
            let runner = simulated.runner
            let running = Task(executorPreference: simulation) { await runner.run(until: limit) }
            let pacing = speed.isFinite
                ? Task(executorPreference: simulation) { await Self.pace(simulation.clock, speed: speed) } : nil
            // The GATT hosts start one after the other, as on `--hci sim`; a short run may end
            // before they all have.
            let starting = Task(executorPreference: simulation) {
                for port in simulated.peripherals {
                    do {
                        record.started(try await port.startProfilePeripheral())
                    } catch {
                        record.startFailed(port.name, error)
                        return
                    }
                }
            }
            _ = await running.value
            pacing?.cancel()
            let files = capture ? await runner.withWorld { world in simulated.deviceIDs.map { world.snoop(of: $0) } } : []
            let energy = measuresEnergy
                ? await runner.withWorld { world in EnergyOptions.measure(Array(zip(names, simulated.deviceIDs)).map { (name: $0.0, id: $0.1) }, in: world) }
                : []
            // Closing the pipes ends a start still under way, and every host with it.
            record.end()
            for peripheral in record.peripherals { await peripheral.stop() }
            for port in simulated.peripherals { await port.transport.close() }
            await starting.value
            await runner.stop()
            if let failure = record.failure {
                throw CommandFailure("The simulated world could not start its GATT devices: \(failure).")
            }
            return (files, energy)
        }
        return HostedOutcome(counts: record.counts, failed: record.failed, snoops: snoops, energy: energy)
    }

    private func createSnoopDirectory() throws {
        guard let snoop else { return }
        do {
            try FileManager.default.createDirectory(atPath: snoop, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("Cannot create the snoop directory \(snoop): \(error.clause); "
                                 + "choose a writable path.")
        }
    }

    /// Keeps simulated time from running ahead of `speed` times the wall clock, in steps of
    /// about 10 ms of wall-clock time: a sleeper on the simulation's clock that, each time
    /// it wakes, blocks the simulation's thread until the wall clock has caught up.
    ///
    /// A headless run has nothing arriving from outside, so its pacing need not let the
    /// wall clock into the timeline, as the ``Simulation``'s own pacing does for served
    /// worlds: the simulation runs at full speed and only waits between steps. The run gives
    /// the same lines and captures as at full speed, spread over the wall clock; a processor
    /// slower than `speed` runs it as fast as it can.
    private static func pace(_ clock: VirtualClock, speed: Double) async {
        let step = Int64(min(max(10_000 * speed, 1_000), 3_600_000_000))
        let origin = WallClock.monotonicMicroseconds()
        var simulated = clock.microseconds
        while !Task.isCancelled {
            simulated += step
            do {
                try await clock.sleep(untilMicroseconds: simulated)
            } catch {
                return
            }
            let due = origin + Int64((Double(simulated) / speed).rounded(.up))
            // The wall-clock edge of `--speed`: holding the thread holds the whole simulation,
            // which is what pacing means here; nothing else waits for it.
            while case let remaining = due - WallClock.monotonicMicroseconds(), remaining > 0 {
                usleep(useconds_t(min(remaining, 100_000)))
            }
        }
    }

    /// Writes DIR/<device>.btsnoop for every device when `--snoop DIR` was given, from
    /// `files` in scenario order.
    private func writeSnoops(_ scenario: Scenario, files: [[UInt8]]) throws {
        guard let snoop else { return }
        for (device, bytes) in zip(scenario.devices, files) {
            let path = snoop + "/" + ServedDevice.fileName(device.name) + ".btsnoop"
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
        if energyOptions.energy {
            let devices = zip(scenario.devices, runner.built.deviceIDs).map { (name: $0.0.name, id: $0.1) }
            energyOptions.report(EnergyOptions.measure(devices, in: runner.world), seconds: until, json: json)
        }
        try writeSnoops(scenario, files: snoop == nil ? [] : runner.built.deviceIDs.map { runner.world.snoop(of: $0) })
    }
}

/// What the hosts of a `ble sim run` world did, written on the simulation's thread and read
/// once the run is over: events per device, refused commands, the GATT hosts started.
private final class SimRunRecord: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var failed: Set<String> = []
        var peripherals: [ProfilePeripheral] = []
        var failure: String?
        var ending = false
    }

    private let state = Mutex(State())

    /// Counts one event of interest for `device`.
    func count(_ device: String) { state.withLock { $0.counts[device, default: 0] += 1 } }

    /// Marks the scripted hosts of `devices` as failed.
    func fail(_ devices: [String]) { state.withLock { $0.failed.formUnion(devices) } }

    /// Keeps a GATT host that started, to stop it at the end.
    func started(_ peripheral: ProfilePeripheral) { state.withLock { $0.peripherals.append(peripheral) } }

    /// Notes that `device`'s GATT host could not start, unless the run was ending anyway.
    func startFailed(_ device: String, _ error: any Error) {
        state.withLock { state in
            guard !state.ending, state.failure == nil else { return }
            state.failure = "device \"\(device)\": \(error)"
        }
    }

    /// The run is over: a GATT host still starting is closed, not failed.
    func end() { state.withLock { $0.ending = true } }

    var counts: [String: Int] { state.withLock { $0.counts } }
    var failed: Set<String> { state.withLock { $0.failed } }
    var peripherals: [ProfilePeripheral] { state.withLock { $0.peripherals } }
    var failure: String? { state.withLock { $0.failure } }
}
