import BLE
import BLEBackend
import BLEPhone
import BLETime
import CarFinder
import Foundation
import OpenCoreLocation

/// The stolen car (`system: stolen-car`, Scenarios/stolen-car.yaml): a tag hidden in a car
/// drives past phones with the finder app (Examples/CarFinder) suspended in pockets; each
/// phone whose radio hears it (``PhoneRadio``) and whose app is told reports the tag with the
/// phone's position to the back end over SQLite, and the owner asks the back end for the
/// car's track.
public enum StolenCarSystem {
    /// The hidden tag's proximity UUID.
    public static let tagUUID = UUID(uuidString: "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")!
    /// The tag's identity in the back end.
    public static let tag = "ibeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:7:1701"
    /// The app's name on every phone.
    public static let app = "Finder"

    /// The back end's `Track` (openapi.yaml), as the owner's client reads it.
    public struct Track: Decodable, Sendable {
        /// One report.
        public struct Point: Decodable, Sendable {
            /// When heard, µs since 1970.
            public var time: Int64
            /// The phone that reported it.
            public var phone: String
            /// How loud.
            public var rssi: Int
            /// Where the phone was.
            public var latitude: Double
            /// Where the phone was.
            public var longitude: Double
        }

        /// The tag.
        public var identity: String
        /// Its points, oldest first.
        public var points: [Point]
    }

    /// What the phones and the back end did, and the story.
    public struct Outcome: Sendable {
        /// The story.
        public var run: SystemRun
        /// The track the owner got.
        public var track: Track
        /// What each phone's app reported (and the back end accepted), by phone.
        public var reported: [String: [PhoneSightingPost]]
        /// How many requests each phone sent, by phone.
        public var requests: [String: Int]
    }

    /// The registry's entry.
    public static let system = FieldSystem(name: "stolen-car", summary: "the car's track from what passing phones heard") { setup in
        try await run(setup).run
    }

    /// The scenario's finder phones: its devices called `phone …`.
    public static func phones(of setup: SystemSetup) -> [String] {
        setup.scenario.devices.map(\.name).filter { $0.hasPrefix("phone") }
    }

    /// Plays the scenario with the finder app on every phone, then asks for the track.
    public static func run(_ setup: SystemSetup) async throws -> Outcome {
        let store = try await SystemStore(setup)
        let directory = NSTemporaryDirectory() + "swiftble-stolen-car-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var files: [String: String] = [:]
            for name in phones(of: setup) {
                let file = directory + "/\(name).yaml"
                try PhonePlay.text(setup.text, attachingHostTo: name).write(toFile: file, atomically: true, encoding: .utf8)
                files[name] = file
            }
            let backendStore = store.store
            let outcome = try await PhonePlay.inSimulation(seed: setup.scenario.seed) { clock in
                try await play(setup, files: files, clock: clock,
                               backend: RecordingBackend(BackendInProcess(store: backendStore)) { clock.microseconds })
            }
            await store.close()
            return outcome
        } catch {
            await store.close()
            throw error
        }
    }

    @MainActor
    private static func play(_ setup: SystemSetup, files: [String: String], clock: VirtualClock, backend: RecordingBackend) async throws -> Outcome {
        var phones: [(name: String, phone: SimulatedPhone, host: String)] = []
        let launches = Launches()
        // Each finder's Core Location manager opens its phone's file: what that radio hears there.
        let radios = self.phones(of: setup).compactMap { name in files[name].map { PhoneRadio(device: name, file: $0) } }
        defer { for radio in radios { radio.stop() } }
        for (index, name) in self.phones(of: setup).enumerated() {
            guard let file = files[name] else { continue }
            // Exits on time (PhonePolicy.punctualExits): this run's story rests on them.
            let phone = SimulatedPhone(clock: clock, policy: .punctualExits, seed: setup.scenario.seed &+ UInt64(index))
            let host = PhonePlay.uniqueHost("finder")
            phone.register(server: backend, host: host)
            try phone.install(AppDescription(name: app)) { _ in
                let manager = CLLocationManager(options: .init(hci: "sim:\(file)", exitPeriod: .seconds(10)))
                let finder = CarFinderApp(manager: manager, backend: URL(string: "http://\(host)")!, phone: name, tagUUID: tagUUID,
                                          now: { PhonePlay.date(clock.microseconds) })
                finder.start()
                launches.apps[name] = finder
            }
            try phone.perform(.launch(app))
            try await clock.sleep(for: .milliseconds(100))
            try phone.perform(.background(app))
            phones.append((name, phone, host))
        }
        try await clock.sleep(untilMicroseconds: setup.microseconds)

        // The owner asks the back end for the track, as any client would.
        let answer = await backend.respond(to: NetworkRequest(method: "GET", host: "backend", path: "/identities/\(tag)/track"))
        guard answer.status == 200 else {
            throw SystemError("the back end refused the track: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        let track = try JSONDecoder().decode(Track.self, from: answer.body)

        let end = setup.microseconds
        var story = radios.flatMap(\.lines)
        var hosts: [String: String] = [:]
        for (name, phone, host) in phones {
            hosts[host] = "finder.sim"
            story += PhonePlay.lines(of: phone, device: name)
            for post in launches.apps[name]?.reported ?? [] {
                story.append(SystemStoryLine(time: post.time - PhonePlay.epoch, actor: .app, who: "\(app) on \(name)",
                                             text: "reported \(post.identity) at \(post.rssi) dBm from "
                                                 + String(format: "%.5f, %.5f (±%.0f m)", post.position.latitude, post.position.longitude, post.position.accuracy)))
            }
        }
        story += backend.storyLines(host: "backend")
        let reporters = Set(track.points.map(\.phone)).sorted()
        story.append(SystemStoryLine(time: end, actor: .app, who: "owner",
                                     text: "track of \(track.identity): \(track.points.count) points from " + (reporters.isEmpty ? "no phone" : reporters.joined(separator: ", "))))
        for point in track.points {
            story.append(SystemStoryLine(time: end, actor: .app, who: "owner",
                                         text: String(format: "%.1f s  %.5f, %.5f  ", Double(point.time - PhonePlay.epoch) / 1e6, point.latitude, point.longitude)
                                             + "by \(point.phone) at \(point.rssi) dBm"))
        }
        var requests: [String: Int] = [:]
        for (name, _, host) in phones { requests[name] = backend.exchanges.count(where: { $0.request.host == host }) }
        let outcome = Outcome(run: SystemRun(system: "stolen-car", setup: setup, story: PhonePlay.normalized(story, hosts: hosts)), track: track,
                              reported: launches.apps.mapValues(\.reported), requests: requests)
        for finder in launches.apps.values { finder.stop() }
        for (_, phone, _) in phones { phone.close() }
        return outcome
    }

    /// The finder app object of each phone.
    @MainActor
    private final class Launches {
        var apps: [String: CarFinderApp] = [:]
    }
}
