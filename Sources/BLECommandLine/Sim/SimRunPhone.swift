import BLE
import BLEHost
import BLEPhone
import BLETime
import BLEWorld
import Foundation
import Synchronization

/// `ble sim run` of a scenario whose phone runs programs (apps with `program:`): the
/// phone's host, its apps' programs (``PhonePrograms``), the world and its GATT devices'
/// hosts share one simulation, and the run prints the phone's story — every app state
/// change, each delegate call the system delivers, relaunches, alerts and dropped events,
/// and the programs' own lines — each with its simulated time.
extension SimRunCommand {
    /// Whether the scenario needs the phone's host: an app or an accessory runs a program,
    /// or the phone gets notifications.
    static func hasPrograms(_ scenario: Scenario) -> Bool {
        scenario.devices.contains { device in device.program != nil || device.apps.contains { $0.program != nil } }
            || scenario.actions.contains { if case .notification = $0.action { true } else { false } }
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
        for device in scenario.devices {
            guard let program = device.program else { continue }
            guard AccessoryPrograms.all[program] != nil else {
                throw CommandFailure("\"\(device.name)\" runs \"\(program)\", which is no accessory program ble sim run knows; "
                                     + "use one of " + AccessoryPrograms.names.joined(separator: ", ") + ".")
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
            print("Scenario \"\(scenario.name)\", seed \(scenario.seed), \((Double(limit) / 1_000_000).formatted(decimals: 1)) s simulated")
            for line in story { print(line.text) }
        }
    }

    /// The phone's part: opens its device, installs and launches nothing itself (the
    /// scenario's actions do), runs until `limit`, and returns the story in time order.
    /// It runs on the simulation's thread, not the main actor, so that each of its steps
    /// happens at a virtual time that does not depend on when the main queue gets to it;
    /// only the programs' launch entry points run on the main queue, as on a phone.
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
        let said = StoryRecorder(clock: device.clock) { phone.timeline.count }
        let objects = ProgramObjects()
        var accessories: [(BLEDevice, AccessoryProgram)] = []
        do {
            for app in phone.scenarioApps {
                let launch = app.program.flatMap { PhonePrograms.all[$0] }
                try phone.install(scenarioApp: app.name) { options in
                    guard let launch else { return }
                    objects.keep(launch(options) { line in said.record(place.deviceName, app.name, line) })
                }
            }
            try phone.followScenario()
            for port in place.accessories {
                guard let start = AccessoryPrograms.all[port.program] else {
                    throw CommandFailure("\"\(port.name)\" runs \"\(port.program)\", which is no accessory program ble sim run knows.")
                }
                let accessory = try await BLEDevice.open(host: BLEHost.Host(
                    transport: port.transport, configuration: port.configuration, clock: port.clock, pairingSeed: port.pairingSeed,
                    logLabel: port.name))
                accessories.append((accessory, try await start(accessory, port.name) { line in said.record(port.name, port.program, line) }))
            }
        } catch {
            for (accessory, _) in accessories { await accessory.close() }
            await device.close()
            throw CommandFailure("Scenario \"\(scenario.name)\": \(error).")
        }
        // A phone the scenario posts notifications on serves them over ANCS, and connects to
        // an accessory that asks for them, as an iPhone does once the user picks it in Settings.
        let notifies = scenario.actions.contains { if case .notification(place.deviceName, _) = $0.action { true } else { false } }
        let provider = notifies ? try? await ANCSProvider.start(on: device, center: phone.notificationCenter) : nil
        let connecting = provider.map { provider in
            Task {
                do {
                    let link = try await provider.connectToAccessory(timeout: .microseconds(max(1, limit - device.clock.microseconds)))
                    said.record(place.deviceName, "system", "connected to the accessory at \(link.peer) for ANCS")
                } catch {
                    said.record(place.deviceName, "system", "no accessory asking for ANCS: \(error)")
                }
            }
        }
        try? await device.clock.sleep(untilMicroseconds: limit)
        connecting?.cancel()
        provider?.stop()
        phone.close()
        let timeline = phone.timeline
        for (accessory, program) in accessories {
            await program.stop()
            await accessory.close()
        }
        await device.close()
        return said.merged(with: timeline, device: place.deviceName).filter { $0.time <= limit }
    }
}

/// The program objects the phone's launches made: an app's objects live as long as the run.
@MainActor
final class ProgramObjects {
    private var objects: [AnyObject] = []

    nonisolated init() {}

    func keep(_ object: AnyObject) { objects.append(object) }
}

/// What the phone's programs, its system and the accessories' programs said, each with its
/// time and the number of phone timeline entries made before it, so that the story can
/// put it in its place.
final class StoryRecorder: Sendable {
    private struct Said {
        var time: Int64, position: Int, device: String, app: String, text: String
    }

    private let lines = Mutex<[Said]>([])
    private let clock: any StackClock
    private let position: @Sendable () -> Int

    init(clock: any StackClock, position: @escaping @Sendable () -> Int) {
        self.clock = clock
        self.position = position
    }

    /// Records `text`, said by `app` on `device`, now.
    func record(_ device: String, _ app: String, _ text: String) {
        let said = Said(time: clock.microseconds, position: position(), device: device, app: app, text: text)
        lines.withLock { $0.append(said) }
    }

    /// The phone's `timeline` with every recorded line before the first entry made after it.
    func merged(with timeline: [PhoneTimelineEntry], device: String) -> [PhoneStoryLine] {
        var said = lines.withLock { $0 }[...]
        var story: [PhoneStoryLine] = []
        func take(_ line: Said) { story.append(PhoneStoryLine(device: line.device, app: line.app, time: line.time, said: line.text)) }
        for (index, entry) in timeline.enumerated() {
            while let line = said.first, line.position <= index {
                take(line)
                said = said.dropFirst()
            }
            story.append(PhoneStoryLine(device: device, entry: entry))
        }
        said.forEach(take)
        return story
    }
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
        case let .notification(app, change): (self.app, event, detail) = (app, "notification", change)
        case let .network(app, exchange): (self.app, event, detail) = (app, "network", exchange)
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
        case "notification": words = "notification " + detail
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
