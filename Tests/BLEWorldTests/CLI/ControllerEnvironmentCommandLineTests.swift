import Foundation
import SimulatedTesting
import Testing

/// One rule for the controller of every command that opens one (DESIGN.md, "The command
/// line"): `--hci`, else `$SWIFTBLE_HCI`, else the built-in world.
@Suite("SWIFTBLE_HCI on every command", .ownThread)
struct ControllerEnvironmentCommandLineTests {
    /// A port nothing listens on: a command that reads the variable fails to connect there.
    private static let nowhere = "tcp:127.0.0.1:1"

    private func ble(_ arguments: [String], hci: String) throws -> ProcessResult {
        let path = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        return try runProcess("/usr/bin/env", ["SWIFTBLE_HCI=\(hci)", path] + arguments)
    }

    @Test("scan, advertise, ams, l2cap and beacon commands open the controller SWIFTBLE_HCI names", arguments: [
        ["scan", "--seconds", "1"], ["advertise", "--name", "Env", "--seconds", "1"], ["ams", "consumer", "--seconds", "1"],
        ["l2cap", "listen", "--psm", "0x0080", "--seconds", "1"],
        ["beacon", "monitor", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--seconds", "1"],
    ])
    func environmentIsRead(arguments: [String]) throws {
        let result = try ble(arguments, hci: Self.nowhere)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:1"), "\(result.stderr)")
    }

    @Test("an --hci that names no controller is a usage error (64) listing the forms once")
    func unknownTransport() throws {
        let path = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let result = try runProcess(path, ["scan", "--hci", "bogus", "--seconds", "1"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --hci bogus is not a controller: unknown HCI transport \"bogus\""), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "tcp:HOST:PORT").count == 2, "the forms once: \(result.stderr)")
    }

    @Test("--hci wins over SWIFTBLE_HCI")
    func optionWins() throws {
        let result = try ble(["scan", "--seconds", "1", "--hci", "sim"], hci: Self.nowhere)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
