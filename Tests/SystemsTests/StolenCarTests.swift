import BLE
import BLEBackend
import BLEFleetStore
import BLEWorld
import CarFinder
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenCoreLocation
import SimulatedTesting
import Testing

/// The stolen car, end to end: the `stolen-car` scenario's car carries a hidden tag past six
/// phones with the finder app (Examples/CarFinder) suspended in pockets. The phones that hear
/// it report to the in-process back end over SQLite; the back end's track of the tag
/// (`GET /identities/{identity}/track`) is judged against where
/// the scenario's route put the car at each reported time.
@Suite("The stolen car", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct StolenCarTests {
    static let tagUUID = UUID(uuidString: "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")!
    static let tag = "ibeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:7:1701"
    static let nearRoute = ["phone A", "phone B", "phone C", "phone D"]
    /// The phones by which the car waits (the zebra crossing, the light, the parking place):
    /// their apps wake while it is still there, however late the entry comes.
    static let carWaitsBy: Set = ["phone A", "phone B", "phone D"]
    static let farFromRoute = ["phone E", "phone F"]
    /// The farthest a phone hears the tag, in metres, from the scenario's figures: 0 dBm,
    /// 10 dB of car body, nothing else in the way, three standard deviations (6 dB) of
    /// shadowing in its favour, down to -95 dBm: 40 + 25 log10(d) = 91 dB.
    static let hearingRange = pow(10, (0 - 10 + 95 + 6 - 40) / 25.0)
    /// How far a fix may stray: three times its 5 m accuracy.
    static let fixError = 15.0

    @Test("Phones near the route report the hidden tag; every point of the back end's track is within hearing range of where the car was then; phones far away report nothing")
    func trackFollowsTheCar() async throws {
        let path = PhoneSystems.scenarioPath("stolen-car")
        let scenario = try ScenarioLoader.load(path: path)
        let truth = try PhoneSystems.Truth(scenario)
        let origin = try #require(scenario.origin)
        let directory = try SystemsTesting.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SQLiteFleetStore(path: directory + "/fleet.sqlite")
        try await store.migrate()
        let backend = RecordingBackend(BackendInProcess(store: store))

        var phones: [String: SimulatedPhone] = [:]
        var hosts: [String: String] = [:]
        let launches = FinderLaunches()
        for (index, name) in (Self.nearRoute + Self.farFromRoute).enumerated() {
            let file = directory + "/\(name).yaml"
            try Self.scenario(path, attachingHostTo: name).write(toFile: file, atomically: true, encoding: .utf8)
            let phone = SimulatedPhone(clock: testClock, seed: scenario.seed &+ UInt64(index))
            let host = PhoneSystems.uniqueHost("finder")
            phone.register(server: backend, host: host)
            try phone.install(AppDescription(name: "Finder")) { _ in
                let manager = CLLocationManager(options: .init(hci: "sim:\(file)", exitPeriod: .seconds(10)))
                let app = CarFinderApp(manager: manager, backend: URL(string: "http://\(host)")!, phone: name, tagUUID: Self.tagUUID,
                                       now: { PhoneSystems.date(testClock.microseconds) })
                app.start()
                launches.apps[name] = app
            }
            try phone.perform(.launch("Finder"))
            try await testClock.sleep(for: .milliseconds(100))
            try phone.perform(.background("Finder"))
            phones[name] = phone
            hosts[name] = host
        }
        try await testClock.sleep(untilMicroseconds: Int64((scenario.durationSeconds ?? 130) * 1e6))

        // The owner asks the back end for the track, as any client would.
        let track = try await Self.track(from: backend)
        #expect(track.identity == Self.tag)
        var distances: [Double] = []
        for point in track.points {
            let seconds = PhoneSystems.seconds(sinceEpoch: point.time)
            let car = try #require(truth.position(of: "car", at: seconds))
            let reported = Self.metres(latitude: point.latitude, longitude: point.longitude, origin: origin)
            let distance = hypot(reported.east - car.x, reported.north - car.y)
            distances.append(distance)
            #expect(distance <= Self.hearingRange + Self.fixError,
                    "\(point.phone) at \(seconds) s reported (\(reported.east), \(reported.north)); the car was at (\(car.x), \(car.y))")
        }
        #expect(track.points.map(\.time) == track.points.map(\.time).sorted())
        let reporters = Set(track.points.map(\.phone))
        #expect(reporters.isSuperset(of: Self.carWaitsBy) && reporters.isSubset(of: Self.nearRoute), "reported by \(reporters.sorted())")
        for name in Self.farFromRoute {
            #expect(launches.apps[name]?.reported.isEmpty == true)
            #expect(!backend.exchanges.contains { $0.request.host == hosts[name] }, "\(name) sent a request")
        }
        for name in Self.nearRoute {
            let points = track.points.filter { $0.phone == name }
            let times = points.map { PhoneSystems.seconds(sinceEpoch: $0.time) }
            print("\(name): \(points.count) points, \(tenths(times.min() ?? 0))–\(tenths(times.max() ?? 0)) s")
        }
        let sorted = distances.sorted()
        print("track: \(track.points.count) points from \(reporters.count) phones; phone to car: median \(tenths(sorted.isEmpty ? 0 : sorted[sorted.count / 2])) m, "
              + "max \(tenths(sorted.last ?? 0)) m (hearing range \(tenths(Self.hearingRange)) m + fix \(tenths(Self.fixError)) m)")

        for app in launches.apps.values { app.stop() }
        for phone in phones.values { phone.close() }
        await store.close()
    }

    /// The scenario's text with `phone` the device the host attaches to: Core Location's
    /// manager opens `sim:FILE` on the first `host: external` device, so each phone's
    /// manager gets the same world, heard from where that phone is.
    static func scenario(_ path: String, attachingHostTo phone: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = "  - name: \(phone)\n"
        guard let range = text.range(of: line) else { throw CancellationError() }
        return text.replacingCharacters(in: range, with: line + "    host: external\n")
    }

    /// The tag's track, asked of the back end's router as the owner's client asks it over HTTP.
    static func track(from backend: RecordingBackend) async throws -> TrackAnswer {
        let answer = await backend.respond(to: NetworkRequest(method: "GET", host: "backend", path: "/identities/\(tag)/track"))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return try JSONDecoder().decode(TrackAnswer.self, from: answer.body)
    }

    /// Metres east and north of `origin` of a latitude and longitude: the inverse of the
    /// world's local tangent plane (WGS 84 metres per degree at the origin's latitude).
    static func metres(latitude: Double, longitude: Double, origin: GeographicOrigin) -> (east: Double, north: Double) {
        let phi = origin.latitude * .pi / 180
        let perDegreeLatitude = 111_132.92 - 559.82 * cos(2 * phi) + 1.175 * cos(4 * phi)
        let perDegreeLongitude = 111_412.84 * cos(phi) - 93.5 * cos(3 * phi)
        return ((longitude - origin.longitude) * perDegreeLongitude, (latitude - origin.latitude) * perDegreeLatitude)
    }
}

/// The back end's `Track` (openapi.yaml), as the owner's client reads it.
struct TrackAnswer: Decodable {
    struct Point: Decodable {
        var time: Int64
        var phone: String
        var rssi: Int
        var latitude: Double
        var longitude: Double
    }

    var identity: String
    var points: [Point]
}

/// The finder app object of each phone.
@MainActor
final class FinderLaunches {
    var apps: [String: CarFinderApp] = [:]
}
