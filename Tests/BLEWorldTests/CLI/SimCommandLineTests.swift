import BLEWire
import Foundation
import Glibc
import SimulatedTesting
import Testing

/// The `ble sim` command line, run as the built executable (the test target cannot import
/// an executable target without changing Package.swift).
@Suite("ble sim command line", .serialized, .ownThread)
struct SimCommandLineTests {
    private func ble(_ arguments: String...) throws -> ProcessResult {
        let path = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        return try runProcess(path, arguments)
    }

    @Test("sim run accepts a built-in scenario, --seed, --until and --json, and prints only JSON objects")
    func runJSON() throws {
        let result = try ble("sim", "run", "neighbourhood", "--seed", "9", "--until", "0.5", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        for line in result.stdout.split(separator: "\n") {
            #expect(line.hasPrefix("{\"time\": ") && line.hasSuffix("}"), "\(line)")
        }
    }

    @Test("sim run walk prints the walk's timeline: enter, far, near, immediate at 40 s, far, unknown, exit")
    func runWalkTimeline() throws {
        let result = try ble("sim", "run", "walk")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Scenario \"walk\", seed 1, 90.0 s simulated")
        let walker = lines.filter { $0.contains("  walker  ") }
        #expect(walker.map { $0.split(separator: " ").dropFirst(3).first.map(String.init) ?? "" }
            == ["hears", "enter", "far", "near", "immediate", "far", "unknown", "exit"])
        #expect(walker.contains("   40.0 s  walker  immediate \"shop beacon\" (-34.0 dBm filtered, ≈ 10 cm, true 6 cm)"))
        #expect(walker.contains("   76.9 s  walker  exit \"shop\""))
    }

    @Test("sim run car --json prints one JSON object per timeline event")
    func runCarJSON() throws {
        let result = try ble("sim", "run", "car", "--json", "--until", "20")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"time\": ") && $0.hasSuffix("}") })
        #expect(lines.contains { $0.contains("\"event\": \"enter\", \"region\": \"100 ms post\"") })
    }

    @Test("sim run without --json prints a summary naming every device")
    func runSummary() throws {
        let result = try ble("sim", "run", "neighbourhood", "--until", "0.1")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Scenario \"neighbourhood\", seed 2026"))
        // Seconds as the timeline's header writes them (90.0 s), not 0.100000.
        #expect(result.stdout.contains(", 0.1 s simulated"), "\(result.stdout)")
        #expect(result.stdout.contains("Polar H10 A1B2C3D4"))
        #expect(result.stdout.contains("local"))
    }

    @Test("sim run --snoop writes one btsnoop file per device")
    func snoop() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-snoop-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ble("sim", "run", "neighbourhood", "--until", "0.2", "--snoop", directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files.count == 11)
        #expect(files.contains("Polar_H10_A1B2C3D4.btsnoop"), "a capture name a shell takes without quotes: \(files)")
        let bytes = try Data(contentsOf: directory.appendingPathComponent("local.btsnoop"))
        #expect(Array(bytes.prefix(8)) == Array("btsnoop".utf8) + [0])
    }

    @Test("A missing scenario is a usage error (64) whose sentence names every scenario known by name")
    func missingScenario() throws {
        let result = try ble("sim", "run", "/nonexistent/x.yaml")
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: No scenario \"/nonexistent/x.yaml\""), "\(result.stderr)")
        let bogus = try ble("sim", "run", "bogus")
        #expect(bogus.status == 64)
        for name in ["neighbourhood", "empty", "walk", "bus-stop", "bus-stop-pocket", "bus-route", "crowd", "car", "heart-rate-restore",
                     "heart-rate-force-quit", "call-notification-light", "bus-fleet", "shop", "flat"] {
            #expect(bogus.stderr.contains(name), "\(name) missing from \(bogus.stderr)")
        }
    }

    @Test("--hci sim:NAME opens a bundled scenario as ble sim run NAME does; an unknown name is a usage error (64)")
    func bundledScenarioAsController() throws {
        let walk = try ble("scan", "--hci", "sim:walk", "--seconds", "0.5", "--json")
        #expect(walk.status == 0, "\(walk.stderr)")
        let bogus = try ble("scan", "--hci", "sim:bogus", "--seconds", "0.5")
        #expect(bogus.status == 64)
        #expect(bogus.stderr.contains("No scenario \"bogus\""), "\(bogus.stderr)")
        #expect(bogus.stderr.contains("call-notification-light"), "\(bogus.stderr)")
    }

    @Test("A snoop directory that cannot be made says why in one sentence, without a period inside it")
    func snoopDirectoryRefused() throws {
        let result = try ble("sim", "run", "neighbourhood", "--until", "0.1", "--snoop", "/etc/hostname")
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cannot create the snoop directory /etc/hostname: "), "\(result.stderr)")
        #expect(!result.stderr.contains(".;"), "\(result.stderr)")
    }

    @Test("A bad scenario file reports file, line, device and field")
    func badFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(getpid()).yaml")
        try "devices:\n  - name: lamp\n    txPower: 99\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ble("sim", "run", file.path)
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(file.path):3: device \"lamp\", devices[0].txPower"))
    }

    @Test("Invalid options are refused: negative --until, unknown options, too many devices")
    func badOptions() throws {
        #expect(try ble("sim", "run", "neighbourhood", "--until", "-1").status != 0)
        #expect(try ble("sim", "run", "neighbourhood", "--frobnicate").status != 0)
        #expect(try ble("sim", "serve", "--devices", "1000").status != 0)
        #expect(try ble("sim", "serve", "--speed", "0").status != 0)
        #expect(try ble("sim", "serve", "empty").stderr.contains("Nothing to serve"))
    }

    @Test("A second host on a served port is told that the controller may already have a host attached")
    func secondHostIsTold() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "1", "--tcp-base-port", "0"])
        defer { served.stop() }
        let first = try BackgroundCommand(executable: executable, arguments: [
            "advertise", "--name", "First", "--seconds", "120", "--hci", "tcp:127.0.0.1:\(served.ports[0])"])
        defer { first.stop() }
        let deadline = Date().addingTimeInterval(60)
        while !first.output.contains("Advertising"), first.process.isRunning, Date() < deadline { usleep(50_000) }
        #expect(first.output.contains("Advertising"), "\(first.output)")
        let second = try ble("scan", "--seconds", "1", "--hci", "tcp:127.0.0.1:\(served.ports[0])")
        #expect(second.status == 1)
        #expect(second.stderr.contains("it may already have a host attached"), "\(second.stderr)")
    }

    @Test("sim serve prints one READY line with ports and devices, and accepts H4 over TCP")
    func serve() throws {
        let path = try #require(bleExecutable())
        let server = try ServedWorld(executable: path, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        defer { server.stop() }
        #expect(server.ports.count == 2)
        #expect(server.devices.map(\.name) == ["host-1", "host-2"])
        #expect(server.devices.map(\.address) == ["F0:5B:1E:00:00:01", "F0:5B:1E:00:00:02"])
        // A host can connect and send a command; a second client on the same port is refused.
        let first = try TCPClient(port: server.ports[0])
        defer { first.close() }
        try first.send(Hex.decode("01030c00") ?? [])
        let second = try TCPClient(port: server.ports[0])
        defer { second.close() }
        #expect(second.readUntilClosed(timeoutSeconds: 5))
    }

    @Test("a port in use is said in the system's words, not NIO's description of bind")
    func portInUse() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let first = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "1", "--tcp-base-port", "0"])
        defer { first.stop() }
        let port = first.ports[0]
        let second = try runProcess(executable, ["sim", "serve", "--devices", "1", "--tcp-base-port", "\(port)"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("Cannot listen on 127.0.0.1:\(port) for "), "\(second.stderr)")
        #expect(second.stderr.contains(": Address already in use; pick another --tcp-base-port"), "\(second.stderr)")
        #expect(!second.stderr.contains("errno"), "\(second.stderr)")
    }
}
