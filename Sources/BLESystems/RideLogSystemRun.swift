import BLE
import BLEBackend
import BLEPhone
import BLETime
import Foundation
import OpenCoreLocation
import RideLog

/// The ride log (`system: ride-log`, Scenarios/ride-log.yaml): the rider's phone runs the
/// Rides app (Examples/RideLog) as the scenario says; the rider's radio hears the beacons
/// (``PhoneRadio``); the app records boarding, the stops passed and alighting from the bus's
/// and the stops' beacons, posts the ride with URLSession through the phone's simulated
/// cellular link to the back end over SQLite, and shows the reference number on the lock
/// screen.
public enum RideLogSystemRun {
    /// Bus 42's beacons in ride-log.yaml.
    public static let bus = RideLogApp.Bus(uuid: UUID(uuidString: "3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64")!, major: 42, route: "42")
    /// The four stops' beacons in ride-log.yaml.
    public static let stops = (1 ... 4).map { number in
        RideLogApp.StopBeacon(name: "stop \(number)", uuid: UUID(uuidString: "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51")!, major: 1, minor: UInt16(number))
    }
    /// The rider the app posts as.
    public static let rider = "rider-29"
    /// The app's name on the phone and in the scenario.
    public static let app = "Rides"

    /// What the app and the back end did, and the story.
    public struct Outcome: Sendable {
        /// The story.
        public var run: SystemRun
        /// The rides the app logged.
        public var rides: [RideRecorder.Ride]
        /// The reference numbers the back end gave.
        public var references: [String]
        /// Rides still waiting to be posted at the end.
        public var pending: Int
        /// How many times the app was launched.
        public var launches: Int
        /// The app's own lines, µs since 1970.
        public var appStory: [(time: Int64, line: String)]
        /// The phone's timeline.
        public var timeline: [PhoneTimelineEntry]
        /// What the lock screen showed.
        public var lockScreen: [LockScreenEntry]
        /// Every request the back end answered.
        public var exchanges: [RecordingBackend.Exchange]
        /// The host the app posts to (unique to the run).
        public var host: String
    }

    /// The registry's entry.
    public static let system = FieldSystem(name: "ride-log", summary: "the ride a phone logged and the back end's reference number") { setup in
        try await run(setup).run
    }

    /// Plays the scenario with the Rides app on the rider's phone.
    public static func run(_ setup: SystemSetup) async throws -> Outcome {
        let store = try await SystemStore(setup)
        let directory = NSTemporaryDirectory() + "swiftble-ride-log-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let file = directory + "/" + "ride-log.yaml"
            try setup.text.write(toFile: file, atomically: true, encoding: .utf8)
            let backendStore = store.store
            let outcome = try await PhonePlay.inSimulation(seed: setup.scenario.seed) { clock in
                try await play(setup, file: file, backend: RecordingBackend(BackendInProcess(store: backendStore)) { clock.microseconds })
            }
            await store.close()
            return outcome
        } catch {
            await store.close()
            throw error
        }
    }

    @MainActor
    private static func play(_ setup: SystemSetup, file: String, backend: RecordingBackend) async throws -> Outcome {
        let host = PhonePlay.uniqueHost("rides")
        let deviceName = setup.scenario.devices.first { $0.host == .external }?.name ?? "phone"
        // The app's Core Location manager opens `file`: what the rider's radio hears there.
        let radio = PhoneRadio(device: deviceName, file: file)
        defer { radio.stop() }
        let device = try await BLEDevice.open(scenario: setup.scenario, profile: .iPhone)
        // Exits on time (PhonePolicy.punctualExits): this run's story rests on them.
        let phone = SimulatedPhone(device: device, policy: .punctualExits, seed: setup.scenario.seed)
        phone.register(server: backend, host: host)
        let clock = phone.clock
        let system = RideLogSystem(now: { PhonePlay.date(clock.microseconds) }, sleep: { try await clock.sleep(for: $0) },
                                   beginBackgroundTask: { try? phone.perform(.beginBackgroundTask(app)) },
                                   endBackgroundTask: { try? phone.perform(.endBackgroundTask(app)) })
        let launches = Launches()
        try phone.install(scenarioApp: app) { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(file)", exitPeriod: .seconds(10)))
            let rides = RideLogApp(manager: manager, backend: URL(string: "http://\(host)")!, rider: rider, bus: bus, stops: stops, system: system)
            rides.start()
            launches.apps.append(rides)
        }
        try phone.followScenario()
        try await clock.sleep(untilMicroseconds: setup.microseconds)

        let end = setup.microseconds
        var story = radio.lines + PhonePlay.lines(of: phone, device: deviceName) + backend.storyLines(host: host)
        for launched in launches.apps {
            story += launched.story.map { SystemStoryLine(time: $0.time - PhonePlay.epoch, actor: .app, who: app, text: $0.line) }
        }
        let rides = launches.apps.flatMap(\.rides)
        let references = launches.apps.flatMap(\.references)
        for (index, ride) in rides.enumerated() {
            let boarded = String(format: "%.1f s", Double(ride.boarded.time - PhonePlay.epoch) / 1e6)
            let alighted = String(format: "%.1f s", Double(ride.alighted.time - PhonePlay.epoch) / 1e6)
            let passed = ride.passed.isEmpty ? "no stop" : ride.passed.map(\.zone).joined(separator: ", ")
            let reference = index < references.count ? "reference \(references[index])" : "not yet posted"
            story.append(SystemStoryLine(time: end, actor: .app, who: app,
                                         text: "ride logged: line \(bus.route), boarded at \(ride.boarded.zone) at \(boarded), passed \(passed), "
                                             + "alighted at \(ride.alighted.zone) at \(alighted); \(reference)"))
        }
        if rides.isEmpty { story.append(SystemStoryLine(time: end, actor: .app, who: app, text: "no ride logged")) }
        let outcome = Outcome(run: SystemRun(system: "ride-log", setup: setup, story: PhonePlay.normalized(story, hosts: [host: "rides.sim"])),
                              rides: rides, references: references, pending: launches.apps.map(\.pending.count).reduce(0, +),
                              launches: launches.apps.count, appStory: launches.apps.flatMap(\.story), timeline: phone.timeline,
                              lockScreen: phone.lockScreenLog, exchanges: backend.exchanges, host: host)
        for launched in launches.apps { launched.stop() }
        phone.close()
        await device.close()
        return outcome
    }

    /// The app object of each launch.
    @MainActor
    private final class Launches {
        var apps: [RideLogApp] = []
    }
}
