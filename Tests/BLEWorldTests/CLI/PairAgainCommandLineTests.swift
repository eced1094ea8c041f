import Foundation
import SimulatedTesting
import Testing

/// `ble pair` twice on the built-in world, which is new in every run.
@Suite("ble pair twice on the built-in world", .serialized, .ownThread)
struct PairAgainCommandLineTests {
    @Test("pairing again on sim says that each run's world forgets its bonds, and how to pair again")
    func pairTwiceOnSim() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-pair-again-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["-s", "KILL", "120", executable, "pair", "Polar H10", "--bonds", directory.path + "/bonds.json", "--hci", "sim"]
        let first = try runProcess("/usr/bin/timeout", arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try runProcess("/usr/bin/timeout", arguments)
        #expect(second.status == 1)
        #expect(second.stderr.contains("each run builds a new world whose devices remember no bonds"), "\(second.stderr)")
        #expect(second.stderr.contains("--force"), "\(second.stderr)")
    }
}
