import BLE
import BLEBackend
import BLEFleetStore
import BLEPhone
import BLESystems
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
/// the reference number on the lock screen (BLESystems' ``RideLogSystemRun``, as
/// `ble sim run ride-log` plays it); the test judges the logged ride against the scenario's routes.
@Suite("The ride log", .timeLimit(.minutes(10)))
struct RideLogTests {
    @Test("The logged boarding stop, stops passed and alighting stop are the scenario's; the post waits out the outage, the ride is stored once and its reference reaches the lock screen")
    func rideLogged() async throws {
        let scenario = try ScenarioLoader.load(path: PhoneSystems.scenarioPath("ride-log"))
        let truth = try Self.truth(of: scenario)
        let outage = try #require(Self.outage(of: scenario))

        let directory = try SystemsTesting.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try await RideLogSystemRun.run(SystemsTesting.setup("ride-log", storePath: directory + "/fleet.sqlite"))
        let host = outcome.host
        #expect(outcome.launches == 1, "the app was launched once and never ended")
        for line in outcome.run.story { print(line) }

        // The ride, against the truth.
        let ride = try #require(outcome.rides.first, "no ride was logged: \(outcome.appStory)")
        #expect(outcome.rides.count == 1)
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
        #expect(outcome.appStory.contains { $0.line.contains("post failed (network(code: -1009))") }, "the post never met the outage")
        let posts = outcome.exchanges.filter { $0.request.method == "POST" && $0.request.path == "/rides" }
        #expect(posts.filter { $0.response.status == 201 }.count == 1, "\(posts.map(\.response.status))")
        #expect(posts.allSatisfy { [200, 201].contains($0.response.status) })
        let reference = try #require(outcome.references.first)
        #expect(outcome.references == [reference])
        #expect(outcome.pending == 0)
        let store = SQLiteFleetStore(path: directory + "/fleet.sqlite")
        let stored = try #require(try await store.ride(reference: reference))
        await store.close()
        #expect(stored.stops.map(\.zone) == [truth.boarded] + truth.passed + [truth.alighted])
        #expect(stored.rider == "rider-29")
        let sent = outcome.timeline.filter { $0.description.contains("POST \(host)/rides 201") }.map { Double($0.time) / 1e6 }
        #expect(sent.count == 1 && sent.allSatisfy { $0 >= outage.upperBound }, "sent at \(sent) s, link back at \(outage.upperBound) s")

        // The reference on the lock screen, after the link came back.
        let shown = outcome.lockScreen.filter { $0.title.contains(reference) }
        #expect(shown.count == 1, "\(outcome.lockScreen)")
        if let note = shown.first {
            print("lock screen at \(tenths(Double(note.time) / 1e6)) s: \(note.title) — \(note.body)")
            #expect(note.presentation == .lockScreen)
            #expect(Double(note.time) / 1e6 >= outage.upperBound)
            #expect(note.body == "Line 42, \(truth.boarded) to \(truth.alighted)")
        }
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
