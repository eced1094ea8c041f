import BLEAdapter
import BLEHost
import BLEScenarios
import BLETime
import BLEWorld

/// A running accessory program (`program:` of an accessory in a scenario), to stop at the end
/// of a run.
public protocol AccessoryProgram: Sendable {
    /// Stops the program (advertising, sessions).
    func stop() async
}

/// A scenario whose phone runs programs (apps with `program:`), played to its end: the
/// phone's host, its apps' programs, the world and its GATT devices' hosts share one
/// simulation, and the result is the phone's story — every app state change, each delegate
/// call the system delivers, relaunches, alerts and dropped events, and the programs' own
/// lines — each with its simulated time. `ble sim run` prints it; a test can read it.
public struct PhoneStory: Sendable {
    /// An app program's launch entry point: it runs at the user's launch and at every
    /// relaunch by the system, and makes the app's objects again, as
    /// `didFinishLaunchingWithOptions` does; its own log lines go to the closure.
    public typealias Launch = @MainActor @Sendable (PhoneLaunchOptions, @escaping @MainActor (String) -> Void) -> AnyObject
    /// Starts an accessory program on a device, advertising the name; its lines go to the closure.
    public typealias Start = @Sendable (BLEDevice, String, @escaping @Sendable (String) -> Void) async throws -> any AccessoryProgram

    /// The app programs, by the names a scenario uses.
    public var appPrograms: [String: Launch]
    /// The accessory programs, by the names a scenario uses.
    public var accessoryPrograms: [String: Start]

    /// A player that knows these programs.
    public init(appPrograms: [String: Launch], accessoryPrograms: [String: Start]) {
        self.appPrograms = appPrograms
        self.accessoryPrograms = accessoryPrograms
    }

    /// Whether `scenario` needs the phone's host: an app or an accessory runs a program, the
    /// phone gets notifications, or a phone with its own host observes beacons.
    public static func isNeeded(for scenario: Scenario) -> Bool {
        scenario.devices.contains { device in
            device.program != nil || device.apps.contains { $0.program != nil } || observesOnHost(device)
        } || scenario.actions.contains { if case .notification = $0.action { true } else { false } }
    }

    /// Whether `device` is a phone with its own host that observes beacons (`observe:`):
    /// its system watches the regions on its host's scan (`PhoneRegionMonitoring`), so only
    /// its story plays it.
    public static func observesOnHost(_ device: ScenarioDevice) -> Bool {
        device.host == .external && !device.apps.isEmpty && device.observing != nil
    }

    /// Checks that every program `scenario` names is one of ours, and that at most one phone
    /// observes on its own host: the story monitors regions on one phone's host.
    public func check(_ scenario: Scenario) throws(PhoneStoryError) {
        let observers = scenario.devices.filter(Self.observesOnHost).map(\.name)
        if observers.count > 1 {
            throw PhoneStoryError("Phones " + observers.map { "\"\($0)\"" }.joined(separator: ", ") + " each observe (observe:) on "
                                  + "their own host; a phone's story monitors regions on one phone's host: keep observe: on one of them.")
        }
        for device in scenario.devices {
            for app in device.apps {
                guard let program = app.program else { continue }
                guard appPrograms[program] != nil else {
                    throw PhoneStoryError("App \"\(app.name)\" of \"\(device.name)\" runs \"\(program)\", which is no program "
                                          + "ble sim run knows; use one of " + appPrograms.keys.sorted().joined(separator: ", ") + ".")
                }
            }
        }
        for device in scenario.devices {
            guard let program = device.program else { continue }
            guard accessoryPrograms[program] != nil else {
                throw PhoneStoryError("\"\(device.name)\" runs \"\(program)\", which is no accessory program ble sim run knows; "
                                      + "use one of " + accessoryPrograms.keys.sorted().joined(separator: ", ") + ".")
            }
        }
    }

    /// Plays `scenario` until `limit` (µs): opens the phone's device, installs and launches
    /// nothing itself (the scenario's actions do), starts the accessories' programs, and
    /// returns the story in time order. Run it inside a ``BLETime/Simulation``: it runs on the
    /// simulation's thread, not the main actor, so that each of its steps happens at a
    /// virtual time that does not depend on when the main queue gets to it; only the
    /// programs' launch entry points run on the main queue, as on a phone. `snoop` is a
    /// directory for the phone's capture (`phone.btsnoop`); `watcher` sees the world before
    /// it runs (``BLEAdapter/ScenarioFileWatch/Watcher``), for a test to read its truth.
    ///
    /// A phone that observes (`observe:`) has its system monitor the regions on its host's
    /// shared scan (`PhoneRegionMonitoring`): its entries, exits and other observer events
    /// are lines of app `system` and event `observe`, in the words of a scenario timeline.
    /// A phone whose settings say how its user answers pairing dialogs (`pairing:`) shows
    /// them as system alerts of app `Bluetooth` (``SimulatedPhone/showsPairingDialogs(user:options:)``).
    public func play(_ scenario: Scenario, until limit: Int64, snoop: String?,
                     watcher: ScenarioFileWatch.Watcher? = nil) async throws(PhoneStoryError) -> [PhoneStoryLine] {
        let device: BLEDevice
        // The phone's iOS profile (`phone:`): its host's habits from the start, its rules below.
        let profile = PhoneProfile(scenario: scenario.devices.first { $0.host == .external && !$0.apps.isEmpty }?.phone)
        do {
            device = try await BLEDevice.open(scenario: scenario, snoop: snoop.map { $0 + "/phone.btsnoop" }, profile: profile.host,
                                              watcher: watcher)
        } catch {
            throw PhoneStoryError("The simulated world could not start: \(error).")
        }
        guard let place = device.scenarioPlace else {
            await device.close()
            throw PhoneStoryError("The scenario has no device for the phone's host.")
        }
        let phone = SimulatedPhone(device: device, profile: profile, seed: scenario.seed)
        // The user's answers to pairing dialogs (`pairing:` in `phone:`): the phone pairs as an
        // iPhone does (display and keyboard; MITM asked for, not insisted on) and shows each dialog.
        if let pairing = place.device?.phone?.pairing {
            await phone.showsPairingDialogs(user: PairingUser(scenario: pairing), options: PairingOptions(io: .keyboardDisplay))
        }
        let said = StoryRecorder(clock: device.clock) { phone.timeline.count }
        let objects = ProgramObjects()
        var accessories: [(BLEDevice, any AccessoryProgram)] = []
        var monitoring: PhoneRegionMonitoring?
        do {
            for app in phone.scenarioApps {
                let launch = app.program.flatMap { appPrograms[$0] }
                try phone.install(scenarioApp: app.name) { options in
                    guard let launch else { return }
                    objects.keep(launch(options) { line in said.record(place.deviceName, app.name, line) })
                }
            }
            try phone.followScenario()
            // The phone's own region monitoring (`observe:`), on its host's shared scan.
            monitoring = PhoneRegionMonitoring(phone: phone, device: device, place: place) { event in
                said.record(place.deviceName, "system", ScenarioTimeline.words(event.kind), event: "observe")
            }
            monitoring?.start()
            for port in place.accessories {
                guard let start = accessoryPrograms[port.program] else {
                    throw PhoneStoryError("\"\(port.name)\" runs \"\(port.program)\", which is no accessory program ble sim run knows.")
                }
                let accessory = try await BLEDevice.open(host: BLEHost.Host(
                    transport: port.transport, configuration: port.configuration, clock: port.clock, pairingSeed: port.pairingSeed,
                    logLabel: port.name))
                accessories.append((accessory, try await start(accessory, port.name) { line in said.record(port.name, port.program, line) }))
            }
        } catch {
            monitoring?.close()
            for (accessory, _) in accessories { await accessory.close() }
            await device.close()
            throw PhoneStoryError("Scenario \"\(scenario.name)\": \(error).")
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
        monitoring?.close()
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

/// Why a phone's story cannot be played: a sentence that says what is wrong and what to do.
public struct PhoneStoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
