import Foundation
import SimulatedTesting
import Testing

/// `--log-level debug` tells each layer's part of what happened, in order, on the lines of
/// the user's own host (`host=sim`), apart from the world's peripherals' hosts.
@Suite("ble --log-level tells each layer's story", .serialized, .ownThread)
struct LogCommandLineTests {
    private func ble(_ arguments: String...) throws -> ProcessResult {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        return try runProcess("/usr/bin/timeout", ["-s", "KILL", "120", executable] + arguments)
    }

    /// The index of the first of `lines` holding every one of `parts`, or `nil`.
    private func first(_ lines: [String], _ parts: String...) -> Int? {
        lines.firstIndex { line in parts.allSatisfy(line.contains) }
    }

    @Test("every command's --help shows --log-level and --log", arguments: [
        ["scan"], ["advertise"], ["gatt", "dump"], ["bonds", "list"], ["sim", "run"], ["snoop"], ["ams", "consumer"],
        ["gateway"], ["presence", "score"], ["backend"],
    ])
    func helpShowsLogging(command: [String]) throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let result = try runProcess(executable, command + ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("--log-level <log-level>"), "\(result.stdout)")
        #expect(result.stdout.contains("--log <layer=level>"), "\(result.stdout)")
    }

    @Test("A connection nobody answers: the adapter opens, HCI starts, GAP connects, HCI creates and cancels, GAP reports the failure")
    func connectionFailure() throws {
        let result = try ble("gatt", "dump", "11:22:33:44:55:66/public", "--hci", "sim", "--timeout", "2", "--log-level", "debug")
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let story = [
            first(lines, "ble.adapter", "opening sim"),
            first(lines, "ble.hci", "host=sim", "controller ready"),
            first(lines, "ble.gap", "host=sim", "connecting to 11:22:33:44:55:66"),
            first(lines, "ble.hci", "host=sim", "→ LE Create Connection"),
            first(lines, "ble.hci", "host=sim", "→ LE Create Connection Cancel"),
            first(lines, "ble.gap", "host=sim", "connection to 11:22:33:44:55:66 failed"),
        ]
        #expect(story.allSatisfy { $0 != nil }, "\(result.stderr)")
        let found = story.compactMap { $0 }
        #expect(found == found.sorted(), "\(result.stderr)")
    }

    @Test("A GATT dump: the link comes up, ATT settles its MTU, GATT runs its procedures, the link goes down")
    func dumpStory() throws {
        let result = try ble("gatt", "dump", "C4:7A:1B:2C:3D:4E/random", "--hci", "sim", "--log", "gap=info", "--log", "att=info",
                             "--log", "gatt=debug")
        #expect(result.status == 0, "\(result.stderr)")
        let all = result.stderr.split(separator: "\n").map(String.init)
        // The embedded world runs at real-time speed, so where the connection lands in its time, and
        // so the radio's draws, follow the wall clock: a first link the peer never answers on (0x3E) is
        // a real outcome, which the command says and follows with a new one (decision 0056). The story
        // is told by the last link, the one that carried the dump; each earlier one was such a retry.
        let linkUp = "link up with C4:7A:1B:2C:3D:4E as central"
        func isLinkUp(_ line: String) -> Bool { line.contains("ble.gap") && line.contains("host=sim") && line.contains(linkUp) }
        let last = try #require(all.lastIndex(where: isLinkUp), "\(result.stderr)")
        let earlierLinks = all[..<last].filter(isLinkUp).count
        let retries = all[..<last].filter { $0.contains("did not answer on the new link (0x3E); connecting again.") }.count
        #expect(earlierLinks == retries, "\(result.stderr)")
        let lines = Array(all[last...])
        let story = [
            first(lines, "ble.gap", "host=sim", linkUp),
            first(lines, "ble.gatt", "host=sim", "exchangeMTU"),
            first(lines, "ble.att", "host=sim", "ATT_MTU"),
            first(lines, "ble.gatt", "host=sim", "discoverAllPrimaryServices"),
            first(lines, "ble.gap", "host=sim", "link down"),
        ]
        #expect(story.allSatisfy { $0 != nil }, "\(result.stderr)")
        let found = story.compactMap { $0 }
        #expect(found == found.sorted(), "\(result.stderr)")
        // The levels asked for and no more: no HCI command at the default level.
        #expect(!all.contains { $0.contains("ble.hci") && $0.contains("→") })
    }

    @Test("Without log options the user's host is quiet")
    func quietByDefault() throws {
        let result = try ble("gatt", "dump", "C4:7A:1B:2C:3D:4E/random", "--hci", "sim")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("ble.gap"), "\(result.stderr)")
    }
}
