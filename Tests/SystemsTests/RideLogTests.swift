import BLE
import BLEBackend
import BLEFleetStore
import BLEPhone
import BLEWorld
import Foundation
import OpenCoreLocation
import RideLog
import SimulatedTesting
import Testing

/// The ride log, end to end on a simulated phone: the `ride-log` scenario's rider waits at
/// stop 2 with the Rides app (Examples/RideLog) suspended in a pocket, rides bus 42 past
/// stop 3 and gets off at stop 4, while the phone's cellular link is down from 120 s to 165 s.
/// The app posts the ride with URLSession to the in-process back end over SQLite and shows
/// the reference number on the lock screen; the test judges the logged ride against the
/// scenario's routes.
@Suite("The ride log", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct RideLogTests {
    static let bus = RideLogApp.Bus(uuid: UUID(uuidString: "3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64")!, major: 42, route: "42")
    static let stops = (1 ... 4).map { number in
        RideLogApp.StopBeacon(name: "stop \(number)", uuid: UUID(uuidString: "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51")!, major: 1, minor: UInt16(number))
    }

    @Test("The logged boarding stop, stops passed and alighting stop are the scenario's; the post waits out the outage, the ride is stored once and its reference reaches the lock screen")
    func rideLogged() async throws {
        let path = PhoneSystems.scenarioPath("ride-log")
        let scenario = try ScenarioLoader.load(path: path)
        let truth = try Self.truth(of: scenario)
        let outage = try #require(Self.outage(of: scenario))

        let directory = try SystemsTesting.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SQLiteFleetStore(path: directory + "/fleet.sqlite")
        try await store.migrate()
        let backend = RecordingBackend(BackendInProcess(store: store))
        let host = PhoneSystems.uniqueHost("rides")

        let device = try await BLEDevice.open(scenario: scenario, profile: .iPhone)
        let phone = SimulatedPhone(device: device, seed: scenario.seed)
        phone.register(server: backend, host: host)
        let clock = phone.clock
        let system = RideLogSystem(now: { PhoneSystems.date(clock.microseconds) }, sleep: { try await clock.sleep(for: $0) },
                                   beginBackgroundTask: { try? phone.perform(.beginBackgroundTask("Rides")) },
                                   endBackgroundTask: { try? phone.perform(.endBackgroundTask("Rides")) })
        let launches = RideLogLaunches()
        try phone.install(scenarioApp: "Rides") { _ in
            let manager = CLLocationManager(options: .init(hci: "sim:\(path)", exitPeriod: .seconds(10)))
            let app = RideLogApp(manager: manager, backend: URL(string: "http://\(host)")!, rider: "rider-29", bus: Self.bus, stops: Self.stops,
                                 system: system)
            app.start()
            launches.apps.append(app)
        }
        try phone.followScenario()
        try await clock.sleep(untilMicroseconds: Int64((scenario.durationSeconds ?? 200) * 1e6))

        let app = try #require(launches.apps.first)
        #expect(launches.apps.count == 1, "the app was launched once and never ended")
        for (time, line) in app.story { print("\(tenths(PhoneSystems.seconds(sinceEpoch: time))) s  Rides: \(line)") }
        for entry in phone.timeline where entry.description.contains("→") || entry.description.contains("cellular") { print(entry) }

        // The ride, against the truth.
        let ride = try #require(app.rides.first, "no ride was logged: \(app.story)")
        #expect(app.rides.count == 1)
        #expect(ride.boarded.zone == truth.boarded)
        #expect(ride.passed.map(\.zone) == truth.passed)
        #expect(ride.alighted.zone == truth.alighted)
        let boardedAt = PhoneSystems.seconds(sinceEpoch: ride.boarded.time), alightedAt = PhoneSystems.seconds(sinceEpoch: ride.alighted.time)
        print("logged: boarded \(ride.boarded.zone) at \(tenths(boardedAt)) s (bus at the stop from \(tenths(truth.busAtStop)) s, rider on it at \(tenths(truth.boardedAt)) s), passed \(ride.passed.map(\.zone)), "
              + "alighted \(ride.alighted.zone) at \(tenths(alightedAt)) s (off the bus at \(tenths(truth.alightedAt)) s)")
        // The phone hears the bus from the kerb once it stands at the stop; region events
        // reach a background app 1 to 12 s late, and an exit comes after the 10 s exit period.
        #expect((truth.busAtStop ... truth.boardedAt + 12.5).contains(boardedAt))
        #expect((truth.alightedAt ... truth.alightedAt + 25).contains(alightedAt))

        // The post: tried while the link was down, sent once it was back, stored once.
        #expect(app.story.contains { $0.line.contains("post failed (network(code: -1009))") }, "the post never met the outage")
        let posts = backend.exchanges.filter { $0.request.method == "POST" && $0.request.path == "/rides" }
        #expect(posts.filter { $0.response.status == 201 }.count == 1, "\(posts.map(\.response.status))")
        #expect(posts.allSatisfy { [200, 201].contains($0.response.status) })
        let reference = try #require(app.references.first)
        #expect(app.references == [reference])
        #expect(app.pending.isEmpty)
        let stored = try #require(try await store.ride(reference: reference))
        #expect(stored.stops.map(\.zone) == [truth.boarded] + truth.passed + [truth.alighted])
        #expect(stored.rider == "rider-29")
        let sent = phone.timeline.filter { $0.description.contains("POST \(host)/rides 201") }.map { Double($0.time) / 1e6 }
        #expect(sent.count == 1 && sent.allSatisfy { $0 >= outage.upperBound }, "sent at \(sent) s, link back at \(outage.upperBound) s")

        // The reference on the lock screen, after the link came back.
        let shown = phone.lockScreenLog.filter { $0.title.contains(reference) }
        #expect(shown.count == 1, "\(phone.lockScreenLog)")
        if let note = shown.first {
            print("lock screen at \(tenths(Double(note.time) / 1e6)) s: \(note.title) — \(note.body)")
            #expect(note.presentation == .lockScreen)
            #expect(Double(note.time) / 1e6 >= outage.upperBound)
            #expect(note.body == "Line 42, \(truth.boarded) to \(truth.alighted)")
        }

        for app in launches.apps { app.stop() }
        phone.close()
        await device.close()
        await store.close()
    }

    /// The ride by the scenario's routes: sampled every 0.1 s, the rider is on the bus while
    /// inside the bus's body, and at a stop while inside its zone; and when the bus came into
    /// the boarding stop's zone.
    static func truth(of scenario: Scenario) throws
        -> (boarded: String, passed: [String], alighted: String, busAtStop: Double, boardedAt: Double, alightedAt: Double) {
        let world = try PhoneSystems.Truth(scenario)
        var zones: [String] = []
        var boardedAt: Double?
        var alightedAt = 0.0
        for step in 0 ... Int((scenario.durationSeconds ?? 200) * 10) {
            let time = Double(step) / 10
            guard let rider = world.position(of: "rider", at: time), let bus = world.position(of: "bus", at: time) else { continue }
            guard abs(rider.x - bus.x) <= 6, abs(rider.y - bus.y) <= 1.25 else { continue }
            if boardedAt == nil { boardedAt = time }
            alightedAt = time
            if let zone = scenario.zones.first(where: { $0.shape.contains(rider) })?.name, zones.last != zone { zones.append(zone) }
        }
        guard let boardedAt, let first = zones.first, let last = zones.last, zones.count >= 2,
              let stop = scenario.zones.first(where: { $0.name == first }) else { throw CancellationError() }
        // When the bus came into the boarding stop's zone.
        let busAtStop = stride(from: 0.0, through: boardedAt, by: 0.1).first { time in
            world.position(of: "bus", at: time).map { stop.shape.contains(Vector3(x: $0.x, y: $0.y, z: 1)) } ?? false
        } ?? boardedAt
        return (first, Array(zones.dropFirst().dropLast()), last, busAtStop, boardedAt, alightedAt)
    }

    /// When the scenario's network actions have the rider's link down, in seconds.
    static func outage(of scenario: Scenario) -> ClosedRange<Double>? {
        var down: Double?
        for timed in scenario.actions {
            guard case let .network(_, on) = timed.action else { continue }
            if !on { down = timed.atSeconds } else if let start = down { return start ... timed.atSeconds }
        }
        return nil
    }
}

/// The app object of each launch.
@MainActor
final class RideLogLaunches {
    var apps: [RideLogApp] = []
}
