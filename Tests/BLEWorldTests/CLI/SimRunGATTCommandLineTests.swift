import Foundation
import SimulatedTesting
import Testing

/// `ble sim run` with the scenario's GATT devices served by their real hosts, run as the
/// built executable: the output repeats from run to run, and `--speed` only spreads it over
/// the wall clock.
@Suite("ble sim run with GATT hosts", .serialized, .ownThread)
struct SimRunGATTCommandLineTests {
    private func ble(_ arguments: String...) throws -> ProcessResult {
        let path = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        return try runProcess(path, arguments)
    }

    /// The strap's host starts the way only a full host does: it reads the controller's
    /// supported commands and sets its random static address before advertising, with a legacy-PDU
    /// advertising set because its controller claims the extended family.
    private static let strapHostEvents = [
        "{\"time\": 0.000000, \"device\": \"Polar H10 A1B2C3D4\", \"event\": \"commandComplete\", \"opcode\": \"0x1002\", "
            + "\"command\": \"Read Local Supported Commands\", \"status\": \"0x00\"}",
        "\"device\": \"Polar H10 A1B2C3D4\", \"event\": \"commandComplete\", \"opcode\": \"0x2005\", "
            + "\"command\": \"LE Set Random Address\", \"status\": \"0x00\"}",
        // The embedded world's controllers claim the extended family: a legacy-PDU set.
        "\"device\": \"Polar H10 A1B2C3D4\", \"event\": \"commandComplete\", \"opcode\": \"0x2035\", "
            + "\"command\": \"LE Set Advertising Set Random Address\", \"status\": \"0x00\"}",
        "\"device\": \"Polar H10 A1B2C3D4\", \"event\": \"commandComplete\", \"opcode\": \"0x2039\", "
            + "\"command\": \"LE Set Extended Advertising Enable\", \"status\": \"0x00\"}",
    ]

    @Test("sim run neighbourhood --until 5 --json prints the same lines twice, with the strap's GATT host's events")
    func repeatsWithGATTHosts() throws {
        let first = try ble("sim", "run", "neighbourhood", "--until", "5", "--json")
        let second = try ble("sim", "run", "neighbourhood", "--until", "5", "--json")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(first.stdout == second.stdout)
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"time\": ") && $0.hasSuffix("}") })
        for event in Self.strapHostEvents {
            #expect(lines.contains { $0.contains(event) }, "no line with \(event)")
        }
        #expect(lines.contains { $0.contains("\"device\": \"Thermometer\", \"event\": \"commandComplete\", \"opcode\": \"0x2039\"") })
    }

    @Test("The summary names each GATT device's services and counts its host's events")
    func summary() throws {
        let result = try ble("sim", "run", "neighbourhood", "--until", "1")
        #expect(result.status == 0, "\(result.stderr)")
        let strap = try #require(result.stdout.split(separator: "\n").first { $0.contains("Polar H10 A1B2C3D4") })
        #expect(strap.contains("GATT host (heart-rate, battery, device-information), "))
        let count = strap.split(separator: " ").dropLast().last.flatMap { Int($0) } ?? 0
        #expect(count >= 10, "\(strap)")
        #expect(!result.stdout.contains("advertising only"))
    }

    @Test("--snoop captures repeat byte for byte, the GATT devices' included")
    func snoopRepeats() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("ble-gatt-snoop-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        defer { try? FileManager.default.removeItem(at: base) }
        let first = base.appendingPathComponent("1"), second = base.appendingPathComponent("2")
        #expect(try ble("sim", "run", "neighbourhood", "--until", "2", "--snoop", first.path).status == 0)
        #expect(try ble("sim", "run", "neighbourhood", "--until", "2", "--snoop", second.path).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: first.path).sorted()
        #expect(files == (try FileManager.default.contentsOfDirectory(atPath: second.path).sorted()))
        for file in files {
            let bytes = try Data(contentsOf: first.appendingPathComponent(file))
            #expect(bytes == (try Data(contentsOf: second.appendingPathComponent(file))), "\(file) differs")
        }
        // The strap's capture holds its host's commands, well past the advertising-only set-up.
        let strap = try Data(contentsOf: first.appendingPathComponent("Polar_H10_A1B2C3D4.btsnoop"))
        let tag = try Data(contentsOf: first.appendingPathComponent("Tag.btsnoop"))
        #expect(strap.count > 2 * tag.count)
    }

    @Test("--speed 10 spreads the same run over the wall clock")
    func pacedRunIsTheSame() throws {
        let fast = try ble("sim", "run", "neighbourhood", "--until", "1", "--json")
        let start = Date()
        let paced = try ble("sim", "run", "neighbourhood", "--until", "1", "--json", "--speed", "10")
        let elapsed = Date().timeIntervalSince(start)
        #expect(paced.status == 0, "\(paced.stderr)")
        #expect(paced.stdout == fast.stdout)
        #expect(elapsed >= 0.09, "1 s at speed 10 took \(elapsed) s")
        #expect(try ble("sim", "run", "neighbourhood", "--until", "1", "--json", "--speed", "max").stdout == fast.stdout)
    }

    @Test("--speed 0, negative or not a number is refused with one clear sentence")
    func badSpeed() throws {
        for value in ["0", "-1", "fast", "nan"] {
            let result = try ble("sim", "run", "neighbourhood", "--until", "1", "--speed=\(value)")
            #expect(result.status != 0)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("--speed must be a number of simulated seconds per wall-clock second greater than 0"),
                    "\(result.stderr)")
        }
    }
}
