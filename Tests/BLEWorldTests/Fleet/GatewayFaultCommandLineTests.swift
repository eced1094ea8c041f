import BLEWire
import BusOffice
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import SimulatedTesting
import Testing

/// The gateway's promise (docs/gateway.md, "Nothing lost"), tested with real processes: a served
/// bus route (`ble sim serve`), three real `ble gateway` processes (one `--fleet`) writing to a
/// real PostgreSQL, the database stopped for 30 s while the bus waits at its stops, and the
/// gateways killed with SIGKILL and started again mid-route. Every bus sighting the controllers
/// delivered (counted in the served devices' own btsnoop captures) is in the database exactly once,
/// and the bus office (Examples/BusOffice) reads from a real `ble backend` on that database when
/// bus 42 passed each stop.
/// The throwaway cluster's control script (scripts/test-postgres.sh), when .ci/run started one.
private let faultTestPostgresScript = ProcessInfo.processInfo.environment["SWIFTBLE_TEST_POSTGRES_CTL"]

@Suite("Gateway faults", .serialized, .ownThread, .takesTurns, .enabled(if: faultTestPostgresScript != nil,
                                                "needs PostgreSQL: SWIFTBLE_TEST_POSTGRES_CTL is not set (.ci/run starts a throwaway cluster)"))
struct GatewayFaultCommandLineTests {
    static let postgresScript = faultTestPostgresScript
    static let busUUID = "3D7F9A10-6C2B-4F8E-A1D3-5E0B7C9F2A64"
    /// Simulated seconds per wall-clock second.
    static let speed = 3.0

    @Test("PostgreSQL stopped 30 s and the gateways SIGKILLed mid-route: every delivered bus sighting is stored exactly once, and the office sees each stop")
    func nothingLostNothingTwice() async throws {
        let ble = try #require(bleExecutable())
        let script = try #require(Self.postgresScript)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ble-gateway-fault-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A cluster of this test's own, so stopping it disturbs no other test, on a port below
        // Linux's ephemeral range (32768–60999), which no outgoing connection can be holding.
        let port = 25_433 + Int(getpid() % 500)
        let environment = ["SWIFTBLE_PG_DIR": folder.appendingPathComponent("pg").path, "SWIFTBLE_PG_PORT": "\(port)"]
        // The server the script starts outlives the script: it must hold no pipe of ours, or
        // reading that pipe to its end would never finish. The script writes to a log file.
        let log = folder.appendingPathComponent("postgres.log").path
        func control(_ verb: String) throws -> Bool {
            spawnAndWait(["/bin/bash", "-c", "\"$0\" \"$1\" >>\"$2\" 2>&1", script, verb, log], environment: environment) == 0
        }
        try #require(try control("start"), "the test's PostgreSQL did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        defer { _ = try? control("destroy") }
        let database = "postgres://swiftble@127.0.0.1:\(port)/swiftble_test"

        let scenario = folder.appendingPathComponent("bus.yaml")
        try Self.scenario.write(to: scenario, atomically: true, encoding: .utf8)
        let snoops = folder.appendingPathComponent("snoop")
        let world = try ServedWorld(executable: ble, arguments: ["sim", "serve", scenario.path, "--tcp-base-port", "0",
                                                                 "--speed", "\(Self.speed)", "--snoop", snoops.path])
        defer { world.stop() }
        let clock = Date()
        // Blocking waits, on this suite's thread of its own (OwnThreadTrait).
        func wait(until date: Date) { Thread.sleep(until: date) }
        func wait(untilSimulated seconds: Double) { wait(until: clock.addingTimeInterval(seconds / Self.speed)) }
        var fleet = "gateways:\n"
        for device in world.devices {
            let zone = device.name.replacingOccurrences(of: "-", with: " ")
            fleet += "  - {name: \"\(device.name)\", hci: \"tcp:127.0.0.1:\(device.port)\", zone: \"\(zone)\", keep: {ibeacon: [\(Self.busUUID)]}}\n"
        }
        let fleetFile = folder.appendingPathComponent("fleet.yaml")
        try fleet.write(to: fleetFile, atomically: true, encoding: .utf8)
        let gatewayArguments = ["gateway", "--fleet", fleetFile.path, "--database", database, "--spool", folder.appendingPathComponent("spool").path]
        var gateways = try BackgroundCommand(executable: ble, arguments: gatewayArguments)
        // The database goes away before the bus reaches stop 1 and comes back after it left stop 2.
        wait(untilSimulated: 15)
        #expect(try control("stop"))
        let outage = Date()
        // Between stops 1 and 2 no gateway hears the bus: the kill loses nothing in flight, and the
        // batches the killed process spooled during the outage wait for the next one.
        wait(untilSimulated: 56)
        kill(gateways.process.processIdentifier, SIGKILL)
        gateways.process.waitUntilExit()
        let killedOutput = gateways.output
        gateways = try BackgroundCommand(executable: ble, arguments: gatewayArguments)
        wait(until: outage.addingTimeInterval(30))
        #expect(try control("start"))
        wait(untilSimulated: 172)
        kill(gateways.process.processIdentifier, SIGTERM)
        gateways.process.waitUntilExit()
        let finalOutput = gateways.output
        #expect(gateways.process.terminationStatus == 0, "the gateways did not stop cleanly: \(finalOutput)")
        #expect(finalOutput.contains("sightings wait in the spool from an earlier run"), "the restarted gateways found the killed ones' spool")
        world.stop()

        let stored = try Self.storedCounts(database: database)
        for device in world.devices {
            let delivered = try Self.deliveredBusReports(snoop: snoops.appendingPathComponent("\(device.name).btsnoop").path)
            let rows = stored[device.name] ?? (0, 0)
            print("\(device.name): \(delivered) bus reports delivered, \(rows.total) rows stored, \(rows.distinct) distinct")
            #expect(delivered > 30, "\(device.name)'s controller delivered bus reports (\(delivered))")
            #expect(rows.total == delivered, "\(device.name): \(delivered) delivered, \(rows.total) stored\n\(killedOutput)\n\(finalOutput)")
            #expect(rows.distinct == rows.total, "\(device.name): no sighting stored twice")
        }
        try await Self.officeSeesEachStop(ble: ble, database: database, worldStart: clock)
    }

    /// A real `ble backend` on the fault test's database, asked by the bus office when bus 42
    /// passed each stop: the stops in order, each arrival and departure within the stop's
    /// 20 s dwell (in simulated time) of the scenario's timetable. The gateways stamp sightings
    /// with the wall clock, which runs `speed` times slower than the world's.
    static func officeSeesEachStop(ble: String, database: String, worldStart: Date) async throws {
        let backend = try BackgroundCommand(executable: ble, arguments: ["backend", "--database", database, "--port", "0"])
        defer { backend.stop() }
        var port: Int?
        let deadline = Date().addingTimeInterval(60)
        while port == nil, Date() < deadline, backend.process.isRunning {
            port = backend.readyPort
            if port == nil { usleep(50_000) }
        }
        let base = try #require(port.flatMap { URL(string: "http://127.0.0.1:\($0)") }, "ble backend did not start: \(backend.output)")
        let bus = Bus(number: 42, uuid: busUUID, minors: [1, 2, 3])
        // A session of its own: `URLSession.shared` belongs to the simulated phones of other
        // suites in this process (SimulatedNetworkProtocol.register()); made here first, it
        // would send their requests to the real network.
        let office = BusOfficeClient(baseURL: base, session: URLSession(configuration: .ephemeral))
        let passages = try await office.passages(of: bus, gap: 30 / speed)
        let origin = Int64((worldStart.timeIntervalSince1970 * 1_000_000).rounded())
        for line in BusTimetable.lines(bus: bus, passages: passages, origin: origin) { print(line) }
        #expect(passages.map(\.stop) == ["stop 1", "stop 2", "stop 3"], "\(passages)")
        // bus-fleet.yaml's timetable: the bus enters each stop's zone about 2 s before it stops.
        let timetable: [(arrival: Double, departure: Double)] = [(22, 46), (72, 96), (122, 146)]
        for (passage, expected) in zip(passages, timetable) {
            let arrival = Double(passage.arrival - origin) / 1_000_000 * speed
            let departure = Double(passage.departure - origin) / 1_000_000 * speed
            #expect(abs(arrival - expected.arrival) <= 20, "\(passage.stop): arrived at \(arrival) s simulated, timetable \(expected.arrival) s")
            #expect(abs(departure - expected.departure) <= 20, "\(passage.stop): left at \(departure) s simulated, timetable \(expected.departure) s")
        }
    }

    /// Runs a program with no pipes (standard streams on /dev/null) and waits for it with
    /// waitpid: Foundation's Process left a shell that had started a daemon unreaped here.
    /// - Returns: its exit status, or -1 when it could not be started.
    func spawnAndWait(_ arguments: [String], environment: [String: String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return -1 }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }

    /// Stored rows per gateway, and how many distinct receptions (time, address, RSSI) they are.
    static func storedCounts(database: String) throws -> [String: (total: Int, distinct: Int)] {
        let query = "SELECT gateway, count(*), count(DISTINCT (time_us, address, rssi)) FROM sightings GROUP BY gateway"
        let result = try runProcess("/usr/bin/env", ["psql", database, "-At", "-F", "|", "-c", query])
        guard result.status == 0 else { throw ServeError(message: "psql failed: \(result.stderr)") }
        var counts: [String: (Int, Int)] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: "|").map(String.init)
            if fields.count == 3, let total = Int(fields[1]), let distinct = Int(fields[2]) { counts[fields[0]] = (total, distinct) }
        }
        return counts
    }

    /// The advertising reports (legacy or extended) of the bus's iBeacons (with an RSSI) that a served device's
    /// controller sent its host, from that device's capture.
    static func deliveredBusReports(snoop path: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var buffer = BTSnoop.RecordBuffer()
        buffer.append(Array(data))
        guard let header = try buffer.header() else { return 0 }
        let prefix: [UInt8] = [0x4C, 0x00, 0x02, 0x15] + (Hex.decode(busUUID.replacingOccurrences(of: "-", with: "")) ?? [])
        var count = 0
        for record in try buffer.completeRecords() where record.direction == .received {
            guard case let (.event, bytes)? = try? record.hciPacket(datalink: header.datalink),
                  let packet = try? HCI.EventPacket(decoding: Array(bytes)),
                  case let .leMeta(meta)? = try? HCI.Event(decoding: packet) else { continue }
            // The served controllers claim the extended family, so the gateways' scans report
            // the beacons' legacy PDUs as LE Extended Advertising Reports; a legacy scan would not.
            switch meta {
            case let .advertisingReport(report):
                count += report.reports.filter { $0.availableRSSI != nil && Array($0.data).firstRange(of: prefix) != nil }.count
            case let .extendedAdvertisingReport(report):
                count += report.reports.filter { $0.availableRSSI != nil && Array($0.data).firstRange(of: prefix) != nil }.count
            default:
                continue
            }
        }
        return count
    }

    /// bus-fleet.yaml's bus and stops, with each stop's gateway a served device for a real `ble gateway`.
    static let scenario = """
        name: bus fault
        seed: 42
        timing: realistic
        radio: {referenceLossDB: 40, pathLossExponent: 2.5, shadowingSigmaDB: 2, captureMarginDB: 6}
        devices:
          - {name: stop-1, position: [100, 4, 3], antennaGain: 5, host: external}
          - {name: stop-2, position: [350, 4, 3], antennaGain: 5, host: external}
          - {name: stop-3, position: [600, 4, 3], antennaGain: 5, host: external}
          - name: bus
            position: [-100, 0, 0]
            route: {speed: 8.333, waypoints: [{at: [100, 0, 0], pause: 20}, {at: [350, 0, 0], pause: 20}, {at: [600, 0, 0], pause: 20}, [800, 0, 0]]}
            headingFollowsRoute: true
        \(["front": 4, "middle": 0, "rear": -4].sorted { $0.value > $1.value }.enumerated().map { index, beacon in
            """
              - name: bus \(beacon.key) beacon
                address: "C0:B0:05:42:00:0\(index + 1)"
                addressType: random
                carriedBy: {device: bus, offset: [\(beacon.value), 0, 2.7]}
                txPower: -4
                startAt: random
                advertise: {type: nonconn_ind, interval: 100, iBeacon: {uuid: \(busUUID), major: 42, minor: \(index + 1), measuredPower: -44}}
            """
        }.joined(separator: "\n"))
        obstacles:
          - {name: bus body, attachedTo: bus, box: {min: [-6, -1.25, 0], max: [6, 1.25, 3]}, lossDB: 23}
        """
}
