import BLE
import BLEPhone
import BLEFleetStore
import BLETime
import FleetStoreTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import OpenCoreLocation
import RideLog
import Testing

/// The ride log over real processes (docs/systems.md, "Ride log"): the ride-log scenario's
/// world served in real time by `ble sim serve`, the rider's phone in this process running the
/// Rides app (Examples/RideLog) on the wall clock with its Core Location manager on the rider's
/// served controller over TCP, and the ride posted with `URLSession` over real HTTP to a real
/// `ble backend` on PostgreSQL. No phone link is simulated here, so the scenario's network
/// outage is left out: the post on alighting goes through at once.
@Suite("The ride log over real processes", .enabled(if: PostgresTesting.isConfigured,
                                                     "needs PostgreSQL: SWIFTBLE_TEST_POSTGRES is not set (.ci/run starts a throwaway cluster)"))
struct RideLogServedTests {
    /// Bus 42's beacons and the four stops' in ride-log.yaml.
    static let bus = RideLogApp.Bus(uuid: UUID(uuidString: "3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64")!, major: 42, route: "42")
    static let stops = (1 ... 4).map { number in
        RideLogApp.StopBeacon(name: "stop \(number)", uuid: UUID(uuidString: "8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51")!, major: 1, minor: UInt16(number))
    }
    static let rider = "rider-served"

    /// Seconds the bus waits at its depot before it sets off, so that the phone's location
    /// manager is up (its host reset and scanning over TCP) before anything happens.
    static let preRoll = 90.0
    /// The phone must have reported the stop it waits at within this many seconds.
    static let readyWithin = 80.0

    @Test("A rider's phone logs the ride from stop 2 past stop 3 to stop 4 on a served world; a real ble backend stores it in PostgreSQL and answers its reference")
    @MainActor
    func rideOverRealProcesses() async throws {
        let ble = try #require(bleExecutable())
        let target = try await PostgresTesting.makeDatabase()
        do {
            try await Self.rideAndCheck(ble: ble, database: target)
        } catch {
            await PostgresTesting.dropDatabase(target.database)
            throw error
        }
        await PostgresTesting.dropDatabase(target.database)
    }

    /// The ride on a served world, posted to a `ble backend` on `target`, and what the test checks.
    @MainActor
    static func rideAndCheck(ble: String, database target: PostgresTarget) async throws {
        let database = target.description
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ble-ride-log-\(getpid())-\(target.database)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("ride-log.yaml")
        try Self.servedScenario().write(to: scenario, atomically: true, encoding: .utf8)
        let backend = try BackgroundCommand(executable: ble, arguments: ["backend", "--database", database, "--port", "0"])
        defer { backend.stop() }
        let base = try #require(await Self.readyURL(of: backend), "ble backend did not start: \(backend.output)")

        // A world runs in real time whether or not the phone keeps up: on a machine loaded
        // enough that the phone's manager is not up within `readyWithin`, a fresh world and
        // phone are tried once more (the run says so); a second miss fails the test.
        var outcome = try await ride(ble: ble, scenario: scenario, backend: base)
        if outcome == nil {
            print("ride log over real processes: the phone did not report stop 2 within \(Self.readyWithin) s; trying a fresh world")
            outcome = try await ride(ble: ble, scenario: scenario, backend: base)
        }
        let (rides, references, lockScreen) = try #require(outcome, "the phone did not report stop 2 within \(Self.readyWithin) s, twice")
        let ride = try #require(rides.first, "no ride logged")
        #expect(rides.count == 1)
        #expect(ride.boarded.zone == "stop 2" && ride.alighted.zone == "stop 4", "\(ride)")
        #expect(ride.passed.map(\.zone) == ["stop 3"], "\(ride)")
        let reference = try #require(references.first, "the ride was not posted")
        #expect(lockScreen.contains { $0.contains("Ride logged: \(reference)") }, "\(lockScreen)")

        // The back end answers the reference from PostgreSQL, and the ride is stored once.
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: base.appendingPathComponent("rides/\(reference)"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let stored = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(stored["rider"] as? String == Self.rider && stored["reference"] as? String == reference, "\(stored)")
        #expect((stored["boarded"] as? [String: Any])?["zone"] as? String == "stop 2", "\(stored)")
        let count = try runProcess("/usr/bin/env", ["psql", database, "-At", "-c", "SELECT count(*) FROM ride_logs"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(count.stdout) \(count.stderr)")
    }

    /// One ride on a fresh served world: the rides, references and lock screen lines once the
    /// app has posted (or the world's time is up), or nil when the phone did not report the
    /// stop it waits at within ``readyWithin`` seconds.
    @MainActor
    static func ride(ble: String, scenario: URL, backend base: URL) async throws -> ([RideRecorder.Ride], [String], [String])? {
        let world = try ServedWorld(executable: ble, arguments: ["sim", "serve", scenario.path, "--tcp-base-port", "0"])
        defer { world.stop() }
        let start = Date()
        let riderPort = try #require(world.devices.first { $0.name == "rider" }?.port, "the served world has no rider: \(world.devices.map(\.name))")
        let phone = SimulatedPhone(clock: WallClock(), policy: .punctualExits, seed: 29)
        defer { phone.close() }
        let clock = phone.clock
        let system = RideLogSystem(now: { Date() }, sleep: { try await clock.sleep(for: $0) },
                                   beginBackgroundTask: { try? phone.perform(.beginBackgroundTask("Rides")) },
                                   endBackgroundTask: { try? phone.perform(.endBackgroundTask("Rides")) })
        let launches = Launches()
        try phone.install(AppDescription(name: "Rides")) { _ in
            let manager = CLLocationManager(options: .init(hci: "tcp:127.0.0.1:\(riderPort)", exitPeriod: .seconds(10)))
            let app = RideLogApp(manager: manager, backend: base, rider: Self.rider, bus: Self.bus, stops: Self.stops, system: system)
            app.start()
            launches.apps.append(app)
        }
        defer { for app in launches.apps { app.stop() } }
        // ride-log.yaml's actions: launched at 0 s, in a pocket from 2 s.
        try phone.perform(.launch("Rides"))
        try await Task.sleep(for: .seconds(max(0, start.addingTimeInterval(2).timeIntervalSinceNow)))
        try phone.perform(.background("Rides"))
        let origin = Int64((start.timeIntervalSince1970 * 1e6).rounded())
        func story() -> [String] {
            launches.apps.flatMap(\.story).map { String(format: "%8.3f s  ", Double($0.time - origin) / 1e6) + $0.line }
        }
        while !story().contains(where: { $0.hasSuffix("entered stop 2") }), Date() < start.addingTimeInterval(readyWithin) {
            try await Task.sleep(for: .seconds(1))
        }
        guard story().contains(where: { $0.hasSuffix("entered stop 2") }) else { return nil }
        // The bus leaves stop 4 at preRoll + 150 s; the exit comes 10 s later and the post at once.
        while launches.apps.flatMap(\.references).isEmpty, Date() < start.addingTimeInterval(preRoll + 200) {
            try await Task.sleep(for: .seconds(1))
        }
        print("ride log over real processes: \(launches.apps.flatMap(\.rides).count) ride(s)\n" + story().joined(separator: "\n"))
        return (launches.apps.flatMap(\.rides), launches.apps.flatMap(\.references), phone.lockScreenLog.map(\.description))
    }

    /// The app object of each launch.
    @MainActor
    final class Launches {
        var apps: [RideLogApp] = []
    }

    /// Scenarios/ride-log.yaml for a served world: the rider's controller served, without the
    /// actions (this test plays them) and without the system that would run the app in process;
    /// the bus waits ``preRoll`` seconds at its depot first, and the rider as much longer at stop 2.
    static func servedScenario() throws -> String {
        var text = try String(contentsOf: packageRoot().appendingPathComponent("Scenarios/ride-log.yaml"), encoding: .utf8)
        let depot = "waypoints: [{at: [100, 0, 0], pause: 15}"
        let kerb = "- {at: [302, 2.2, 1.2], pause: 62}"
        guard text.contains(depot), text.contains(kerb) else { throw ServeError(message: "ride-log.yaml's routes changed: update servedScenario()") }
        text = text.replacingOccurrences(of: depot, with: "waypoints: [{at: [-50, 0, 0], pause: \(preRoll)}, {at: [100, 0, 0], pause: 15}")
            .replacingOccurrences(of: kerb, with: "- {at: [302, 2.2, 1.2], pause: \(62 + preRoll)}")
            .replacingOccurrences(of: "duration: 200", with: "duration: \(Int(preRoll) + 200)")
        let withoutActions = text.components(separatedBy: "\nactions:").first ?? text
        return withoutActions.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("system:") && !$0.contains("apps: [{name: Rides}]") }
            .joined(separator: "\n") + "\n"
    }

    /// The base URL `ble backend` printed on its READY line, within a minute.
    static func readyURL(of backend: BackgroundCommand) async -> URL? {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, backend.process.isRunning {
            if let port = backend.readyPort { return URL(string: "http://127.0.0.1:\(port)") }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }
}
