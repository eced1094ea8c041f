import BLEWire
import Foundation
import Testing

/// The committed corpus of the `controller` stateful fuzz target
/// (Fuzz/Stateful/Corpus/controller), replayed through the same driver and invariant
/// checks libFuzzer runs (docs/fuzzing.md).
@Suite("Stateful fuzz corpora: controller")
struct ControllerStatefulFuzzReplayTests {
    /// The corpus files, sorted by name; empty when the folder is missing.
    static func corpus() -> [URL] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Fuzz/Stateful/Corpus/controller")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The corpus runs in four shards, side by side: each input runs two controllers
    /// through up to 80 s of virtual time.
    @Test("The controller corpus keeps every invariant and makes connections", arguments: 0 ..< 4)
    func controller(shard: Int) throws {
        var connections = 0
        for (index, file) in ControllerStatefulFuzzReplayTests.corpus().enumerated() where index % 4 == shard {
            let input = [UInt8](try Data(contentsOf: file))
            do {
                connections += try ControllerFuzzDriver.run(input)
            } catch {
                Issue.record("controller/\(file.lastPathComponent): \(error)")
            }
        }
        #expect(connections > 0)
    }

    @Test("The controller driver reports a second answer to a command")
    func driverCanFail() {
        // A Command Complete for a command not in hand breaks "exactly one answer per
        // command": the check refuses it, so the replay cannot pass vacuously.
        var driver = ControllerFuzzDriver()
        let event = HCI.EventPacket(eventCode: HCI.EventCode(rawValue: 0x0E), parameters: [0x01, 0x03, 0x0C, 0x00])
        #expect(throws: StatefulFuzzViolation.self) { try driver.check(.event(event)) }
    }
}
