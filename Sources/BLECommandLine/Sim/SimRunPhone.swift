import BLE
import BLEPhone
import BLETime
import BLEWorld
import Foundation

/// `ble sim run` of a scenario whose phone runs programs (apps with `program:`): the
/// phone's host, its apps' programs (``PhonePrograms``), the world and its GATT devices'
/// hosts share one simulation, and the run prints the phone's story — every app state
/// change, each delegate call the system delivers, relaunches, alerts and dropped events,
/// and the programs' own lines — each with its simulated time.
extension SimRunCommand {
    /// Whether any app of the scenario runs a program.
    static func hasPrograms(_ scenario: Scenario) -> Bool {
        scenario.devices.contains { device in device.apps.contains { $0.program != nil } }
    }

    /// Runs `scenario` until `limit` (µs) with its phone's programs and prints the story.
    func runPhone(_ scenario: Scenario, until limit: Int64, speed: Double) async throws {
        for device in scenario.devices {
            for app in device.apps {
                guard let program = app.program else { continue }
                guard PhonePrograms.all[program] != nil else {
                    throw CommandFailure("App \"\(app.name)\" of \"\(device.name)\" runs \"\(program)\", which is no program "
                                         + "ble sim run knows; use one of " + PhonePrograms.names.joined(separator: ", ") + ".")
                }
            }
        }
        let simulation: Simulation
        do {
            simulation = try Simulation(speed: speed, seed: scenario.seed, waitsForMainQueue: true, name: "ble-sim-run")
        } catch {
            throw CommandFailure("The simulated world could not start: \(error).")
        }
        let snoopPath = snoop
        let story = try await simulation.run {
            try await Self.playPhone(scenario, until: limit, snoop: snoopPath)
        }
        await simulation.finish()
        if json {
            for line in story { print(line.json.text) }
        } else {
            print("Scenario \"\(scenario.name)\", seed \(scenario.seed), \(SimulationLog.seconds(limit)) s simulated")
            for line in story { print(line.text) }
        }
    }

    /// The phone's part: opens its device, installs and launches nothing itself (the
    /// scenario's actions do), runs until `limit`, and returns the story in time order.
    @MainActor
    private static func playPhone(_ scenario: Scenario, until limit: Int64, snoop: String?) async throws -> [PhoneStoryLine] {
        let device: BLEDevice
        do {
            device = try await BLEDevice.open(scenario: scenario, snoop: snoop.map { $0 + "/phone.btsnoop" }, profile: .iPhone)
        } catch {
            throw CommandFailure("The simulated world could not start: \(error).")
        }
        guard let place = device.scenarioPlace else {
            await device.close()
            throw CommandFailure("The scenario has no device for the phone's host.")
        }
        let phone = SimulatedPhone(device: device, seed: scenario.seed)
        let programs = ProgramLines(clock: device.clock) { phone.timeline.count }
        for app in phone.scenarioApps {
            let launch = app.program.flatMap { PhonePrograms.all[$0] }
            do {
                try phone.install(scenarioApp: app.name) { options in
                    guard let launch else { return }
                    programs.keep(launch(options) { line in programs.record(app.name, line) })
                }
            } catch {
                await device.close()
                throw CommandFailure("\(error)")
            }
        }
        do {
            try phone.followScenario()
        } catch {
            await device.close()
            throw CommandFailure("Scenario \"\(scenario.name)\": \(error).")
        }
        try? await device.clock.sleep(untilMicroseconds: limit)
        phone.close()
        let timeline = phone.timeline
        await device.close()
        // A program's line goes before the first timeline entry made after it.
        var lines: [PhoneStoryLine] = []
        var said = programs.lines[...]
        for (index, entry) in timeline.enumerated() {
            while let line = said.first, line.position <= index {
                lines.append(PhoneStoryLine(device: place.deviceName, app: line.app, time: line.time, said: line.text))
                said = said.dropFirst()
            }
            lines.append(PhoneStoryLine(device: place.deviceName, entry: entry))
        }
        lines += said.map { PhoneStoryLine(device: place.deviceName, app: $0.app, time: $0.time, said: $0.text) }
        return lines.filter { $0.time <= limit }
    }
}

/// What the programs said, with the time, and the program objects the phone's launches
/// made (an app's objects live as long as the run).
@MainActor
final class ProgramLines {
    /// Each line with its time and the number of timeline entries the phone had then.
    private(set) var lines: [(time: Int64, position: Int, app: String, text: String)] = []
    private var objects: [AnyObject] = []
    private let clock: any StackClock
    private let position: () -> Int

    init(clock: any StackClock, position: @escaping () -> Int) {
        self.clock = clock
        self.position = position
    }

    func keep(_ object: AnyObject) { objects.append(object) }

    func record(_ app: String, _ text: String) { lines.append((clock.microseconds, position(), app, text)) }
}

/// One line of a phone's story in `ble sim run`.
struct PhoneStoryLine {
    var time: Int64
    var device: String
    var app: String
    /// `state`, `deliver`, `relaunched`, `dropped`, `alert` or `log` (the program's own line).
    var event: String
    var detail: String

    init(device: String, entry: PhoneTimelineEntry) {
        time = entry.time
        self.device = device
        switch entry.output {
        case let .stateChanged(app, from, to): (self.app, event, detail) = (app, "state", "\(from) → \(to)")
        case let .deliver(app, events): (self.app, event, detail) = (app, "deliver", events.map(\.detail).joined(separator: ", "))
        case let .relaunched(app, event): (self.app, self.event, detail) = (app, "relaunched", event.detail)
        case let .dropped(app, event, reason): (self.app, self.event, detail) = (app, "dropped", "\(event.detail) (\(reason))")
        case let .alert(app, message): (self.app, event, detail) = (app, "alert", message)
        }
    }

    init(device: String, app: String, time: Int64, said text: String) {
        self.time = time
        self.device = device
        self.app = app
        event = "log"
        detail = text
    }

    /// `   12.345 s  iPhone  Pulse: ← didUpdateValueFor 2A37`.
    var text: String {
        let seconds = String(format: "%9.3f s", Double(time) / 1e6)
        let words: String
        switch event {
        case "deliver": words = "← " + detail
        case "relaunched": words = "relaunched by the system for " + detail
        case "dropped": words = "dropped " + detail
        case "alert": words = "alert \"\(detail)\""
        case "log": words = "“\(detail)”"
        default: words = detail
        }
        return "\(seconds)  \(device)  \(app): \(words)"
    }

    /// `{"time": 12.345, "device": "iPhone", "app": "Pulse", "event": "deliver", "detail": "…"}`.
    var json: SimulationLog.JSON {
        .object([("time", .seconds(time)), ("device", .string(device)), ("app", .string(app)), ("event", .string(event)),
                 ("detail", .string(detail))])
    }
}
