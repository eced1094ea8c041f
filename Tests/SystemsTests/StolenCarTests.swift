import BLE
import BLEBackend
import BLEFleetStore
import BLESystems
import BLEWorld
import CarFinder
import Foundation
import OpenCoreLocation
import SimulatedTesting
import Testing

/// The stolen car, end to end (BLESystems' ``StolenCarSystem``, as `ble sim run stolen-car`
/// plays it): the `stolen-car` scenario's car carries a hidden tag past six
/// phones with the finder app (Examples/CarFinder) suspended in pockets. The phones that hear
/// it report to the in-process back end over SQLite; the back end's track of the tag
/// (`GET /identities/{identity}/track`) is judged against where
/// the scenario's route put the car at each reported time.
@Suite("The stolen car", .timeLimit(.minutes(10)))
struct StolenCarTests {
    static let tag = StolenCarSystem.tag
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
        let scenario = try ScenarioLoader.load(path: PhoneSystems.scenarioPath("stolen-car"))
        let truth = try PhoneSystems.Truth(scenario)
        let origin = try #require(scenario.origin)
        let outcome = try await StolenCarSystem.run(SystemsTesting.setup("stolen-car"))
        #expect(Set(StolenCarSystem.phones(of: try SystemsTesting.setup("stolen-car"))) == Set(Self.nearRoute + Self.farFromRoute))
        let track = outcome.track

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
            #expect(outcome.reported[name]?.isEmpty == true)
            #expect(outcome.requests[name] == 0, "\(name) sent a request")
            // Their radios never heard the tag either.
            #expect(!outcome.run.story.contains { $0.actor == .radio && $0.who == name && $0.text.contains(Self.tag) })
        }
        // Each reporting phone's radio began hearing the tag before its first point.
        for name in reporters {
            let began = outcome.run.story.first { $0.actor == .radio && $0.who == name && $0.text == "began hearing \(Self.tag)" }
            let first = track.points.filter { $0.phone == name }.map { PhoneSystems.seconds(sinceEpoch: $0.time) }.min()
            #expect(began.map { Double($0.time) / 1e6 <= (first ?? 0) } == true, "\(name)'s radio: \(began?.description ?? "never heard the tag")")
        }
        for name in Self.nearRoute {
            let points = track.points.filter { $0.phone == name }
            let times = points.map { PhoneSystems.seconds(sinceEpoch: $0.time) }
            print("\(name): \(points.count) points, \(tenths(times.min() ?? 0))–\(tenths(times.max() ?? 0)) s")
        }
        let sorted = distances.sorted()
        print("track: \(track.points.count) points from \(reporters.count) phones; phone to car: median \(tenths(sorted.isEmpty ? 0 : sorted[sorted.count / 2])) m, "
              + "max \(tenths(sorted.last ?? 0)) m (hearing range \(tenths(Self.hearingRange)) m + fix \(tenths(Self.fixError)) m)")
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
