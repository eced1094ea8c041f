import Foundation
import Glibc
import SimulatedTesting
import Testing

/// Arguments as a new user types them (issue 35's polish list): ranges said as they are
/// checked, negative numbers, `0x` where the command line takes hex, an own address checked
/// before anything opens; all usage errors exit 64 with one sentence.
@Suite("ble arguments: ranges, negative numbers, 0x", .ownThread)
struct ArgumentCommandLineTests {
    @Test("a duration out of range names the range it is checked against, for every command", arguments: [
        (["scan", "--seconds", "0"], "--seconds must be more than 0 and at most 86400 seconds; got 0."),
        (["beacon", "range", "--seconds", "0"], "--seconds must be more than 0 and at most 86400 seconds; got 0."),
        (["gatt", "read", "Polar H10", "2A19", "--timeout", "0"], "--timeout must be more than 0 and at most 3600 seconds; got 0."),
        (["l2cap", "connect", "Echo", "--psm", "0x80", "--timeout", "0"], "--timeout must be more than 0 and at most 3600 seconds; got 0."),
    ])
    func rangeSaidAsChecked(arguments: [String], sentence: String) throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, arguments + ["--hci", "sim"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(sentence), "\(result.stderr)")
    }

    @Test("a negative number is an option's value, refused by the option's own check rather than 'Missing value'", arguments: [
        (["scan", "--seconds", "-5"], "--seconds must be more than 0 and at most 86400 seconds; got -5."),
        (["bench", "write", "--count", "-1"], "--count must be at least 1."),
        (["beacon", "emit", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1", "--minor", "1",
          "--power", "-200"], "--power -200 is outside -128 to 127 dBm"),
    ])
    func negativeNumbers(arguments: [String], sentence: String) throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(sentence), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
    }

    @Test("scan --service takes 0x180D as advertise and gatt take 0x, and keeps only the strap's Heart Rate service")
    func serviceWithHexPrefix() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["scan", "--service", "0x180D", "--seconds", "2", "--json", "--hci", "sim"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = jsonLines(result.stdout)
        #expect(!objects.isEmpty, "\(result.stdout)")
        #expect(objects.allSatisfy { ($0["serviceUUIDs"] as? [String])?.contains("180D") == true }, "\(result.stdout)")
    }

    @Test("advertise --manufacturer takes 0x4C0001; a bad value names the forms it takes")
    func manufacturerWithHexPrefix() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let good = try runProcess(executable, ["advertise", "--manufacturer", "0x4C0001", "--seconds", "0.5", "--hci", "sim"])
        #expect(good.status == 0, "\(good.stderr)")
        let bad = try runProcess(executable, ["advertise", "--manufacturer", "0x4C", "--seconds", "0.5", "--hci", "sim"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--manufacturer 0x4C must be hex octets (4C0001 or 0x4C0001)"), "\(bad.stderr)")
    }

    @Test("--own-address that is not a random static address is a usage error before anything opens")
    func ownAddressChecked() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["gatt", "read", "Polar H10", "2A19", "--own-address", "00:11:22:33:44:55", "--hci", "sim"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--own-address 00:11:22:33:44:55 is not a random static address"), "\(result.stderr)")
    }

    @Test("a controller that cannot be reached is said once, not also as the adapter's error log")
    func unreachableSaidOnce() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["scan", "--seconds", "1", "--hci", "tcp:127.0.0.1:1"])
        #expect(result.status == 1)
        #expect(result.stderr.components(separatedBy: "connection refused").count == 2, "\(result.stderr)")
    }

    @Test("a piped scan interrupted by Ctrl-C prints the table of what it heard and exits 0, as ping does")
    func interruptedPipedScanKeepsItsTable() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let capture = temporaryPath("scan-interrupted") + ".btsnoop"
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let scan = try BackgroundCommand(executable: executable, arguments: ["scan", "--seconds", "600", "--hci", "sim", "--snoop", capture])
        defer { scan.stop() }
        // Interrupted once advertising reports arrive: the capture grows past the setup commands.
        let deadline = Date().addingTimeInterval(120)
        while Self.size(of: capture) < 4000, scan.process.isRunning, Date() < deadline {
            usleep(100_000)
        }
        kill(scan.process.processIdentifier, SIGINT)
        #expect(scan.waitForExit(within: 60) == 0, "\(scan.output)")
        #expect(scan.output.contains("ADDRESS"), "\(scan.output)")
        #expect(scan.output.contains("device(s)"), "\(scan.output)")
    }

    @Test("the scan table names iBeacons with major and minor labelled")
    func scanTableNamesBeacons() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let result = try runProcess(executable, ["scan", "--seconds", "3", "--hci", "sim"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("iBeacon \(neighbourhoodBeaconUUID) major 1 minor 1"), "\(result.stdout)")
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
