import Foundation
import Glibc
import SimulatedTesting
import Testing

/// `ble gateway` from the command line: what it stores, what it refuses and why, its metrics,
/// and a controller that goes away under it.
@Suite("ble gateway", .ownThread, .takesTurns)
struct GatewayCommandLineTests {
    private func ble(_ arguments: [String], in folder: URL) throws -> ProcessResult {
        try runProcess(try #require(bleExecutable()), arguments, directory: folder)
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ble-gateway-cli-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("A gateway on the embedded neighbourhood stores its beacons in the default SQLite file and says so")
    func storesBeacons() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ble(["gateway", "--name", "porch", "--seconds", "3"], in: folder)
        #expect(result.status == 0, "status \(result.status): \(result.stderr) \(result.stdout)")
        let summary = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("gateway \"porch\"") })
        let numbers = summary.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        // advertisements, kept, stored, still spooled, dropped
        #expect(numbers.count == 5 && numbers[1] > 10 && numbers[2] == numbers[1] && numbers[3] == 0 && numbers[4] == 0, "\(summary)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("ble-fleet.sqlite").path))
    }

    @Test("--check opens and migrates the store and says what it checked")
    func check() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ble(["gateway", "--name", "porch", "--check", "--database", "sqlite:fleet.sqlite"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ok: database sqlite:"))
        #expect(result.stdout.contains("reachable, schema 2"), "\(result.stdout)")
    }

    @Test("Bad options are refused with a sentence naming the option and what it accepts", arguments: [
        (["--database", "mysql://db/fleet"], "--database"),
        (["--database", "postgres://db:notaport/fleet"], "--database"),
        (["--irk", "1234"], "--irk \"1234\""),
        (["--ibeacon", "not-a-uuid"], "--ibeacon \"not-a-uuid\""),
        (["--spool-limit", "lots"], "--spool-limit"),
        (["--name", "a/b"], "--name"),
        (["--batch-size", "0"], "--batch-size"),
    ])
    func badOptions(arguments: [String], named: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ble(["gateway", "--check"] + arguments, in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains(named), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test("A database directory that does not exist is a clear error, not a crash")
    func missingDirectory() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ble(["gateway", "--check", "--database", "sqlite:/nonexistent/dir/fleet.sqlite"], in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/dir"), "\(result.stderr)")
    }

    @Test("A database that refuses the login says so", .enabled(if: ProcessInfo.processInfo.environment["SWIFTBLE_TEST_POSTGRES"] != nil,
                                                                "needs PostgreSQL: SWIFTBLE_TEST_POSTGRES is not set (.ci/run starts a throwaway cluster)"))
    func refusedLogin() throws {
        let admin = try #require(ProcessInfo.processInfo.environment["SWIFTBLE_TEST_POSTGRES"])
        let server = try #require(admin.split(separator: "@").last?.split(separator: "/").first)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ble(["gateway", "--check", "--database", "postgres://swiftble_pw:wrong-password@\(server)/swiftble_test?sslmode=disable"], in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains("refused the login"), "\(result.stderr)")
    }

    @Test("The metrics page lists the gateway's counters for Prometheus")
    func metrics() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gateway = try BackgroundCommand(executable: try #require(bleExecutable()),
                                            arguments: ["gateway", "--name", "porch", "--seconds", "600", "--metrics-port", "0",
                                                        "--database", "sqlite:" + folder.appendingPathComponent("fleet.sqlite").path,
                                                        "--spool", folder.appendingPathComponent("spool").path])
        defer { gateway.stop() }
        var port: Int?
        let deadline = Date().addingTimeInterval(60)
        while port == nil, Date() < deadline, gateway.process.isRunning {
            if let line = gateway.output.split(separator: "\n").first(where: { $0.contains("metrics at http://127.0.0.1:") }),
               let text = line.split(separator: ":").last?.split(separator: "/").first {
                port = Int(text)
            }
            usleep(100_000)
        }
        let found = try #require(port, "no metrics line: \(gateway.output)")
        var page = ""
        while Date() < deadline {
            let client = try TCPClient(port: found)
            try client.send(Array("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
            page = String(decoding: client.read(timeoutSeconds: 5), as: UTF8.self)
            client.close()
            if page.contains("ble_gateway_sightings_total{gateway=\"porch\"}") { break }
            usleep(200_000)
        }
        #expect(page.hasPrefix("HTTP/1.1 200 OK"))
        for name in ["ble_gateway_advertisements_total", "ble_gateway_sightings_total", "ble_gateway_spool_batches", "ble_gateway_batch_write_seconds"] {
            #expect(page.contains(name), "\(name) missing from:\n\(page)")
        }
    }

    @Test("A controller that goes away mid-scan stops the gateway with a sentence, and what it kept is stored")
    func controllerGoesAway() throws {
        let ble = try #require(bleExecutable())
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("world.yaml")
        try """
            name: porch
            devices:
              - {name: gw, position: [0, 0, 1], host: external}
              - name: tag
                position: [2, 0, 1]
                advertise: {type: nonconn_ind, interval: 100, iBeacon: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 1, measuredPower: -59}}
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let world = try ServedWorld(executable: ble, arguments: ["sim", "serve", scenario.path, "--tcp-base-port", "0"])
        let gateway = try BackgroundCommand(executable: ble, arguments: ["gateway", "--name", "gw", "--hci", "tcp:127.0.0.1:\(world.ports[0])",
                                                                          "--database", "sqlite:" + folder.appendingPathComponent("fleet.sqlite").path,
                                                                          "--spool", folder.appendingPathComponent("spool").path])
        defer { gateway.stop() }
        Thread.sleep(forTimeInterval: 3)
        world.stop()
        let deadline = Date().addingTimeInterval(30)
        while gateway.process.isRunning, Date() < deadline { usleep(100_000) }
        #expect(!gateway.process.isRunning, "the gateway kept running after its controller went away")
        #expect(gateway.process.terminationStatus != 0)
        let output = gateway.output
        #expect(output.contains("A gateway stopped: gw:"), "\(output)")
        let summary = try #require(output.split(separator: "\n").first { $0.hasPrefix("gateway \"gw\"") })
        let numbers = summary.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        #expect(numbers.count == 5 && numbers[1] > 0 && numbers[2] == numbers[1] && numbers[3] == 0, "\(summary)")
        #expect(!output.contains("Fatal error"))
    }
}
