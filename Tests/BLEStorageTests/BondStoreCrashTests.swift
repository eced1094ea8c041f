import BLEHost
import BLEStorage
import Foundation
import SimulatedTesting
import Testing

/// The built `ble` executable, which SwiftPM puts beside the test bundle.
func bleExecutable() -> String? {
    var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0 ..< 4 {
        let candidate = directory.appendingPathComponent("ble").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return nil
}

/// Crash safety of the bond store: a writer killed at any point
/// leaves the old store or the new one, never a corrupt or partial file.
@Suite("Bond store crash safety", .ownThread)
struct BondStoreCrashTests {
    @Test("SIGKILL at 100 random points while ble bonds stress-write saves leaves exactly store A or B")
    func killedWriter() throws {
        let ble = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/bonds.json"
        var seen = ["A": 0, "B": 0]
        var references: (a: [UInt8], b: [UInt8])?
        for round in 0 ..< 100 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ble)
            process.arguments = ["bonds", "stress-write", "--file", path, "--records", "40", "--seed", "7"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var printed = Data()
            while !printed.contains(Data("READY\n".utf8)) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed.append(chunk)
            }
            try #require(String(decoding: printed, as: UTF8.self) == "READY\n", "round \(round): the writer did not start")
            // The random kill point: up to 20 ms into the save loop (pacing, not waiting for an event).
            usleep(UInt32.random(in: 0 ... 20_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the writer ended on its own")

            if references == nil {
                references = (try Array(Data(contentsOf: URL(fileURLWithPath: path + ".a"))),
                              try Array(Data(contentsOf: URL(fileURLWithPath: path + ".b"))))
            }
            let (a, b) = try #require(references)
            #expect(a != b)
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes == a || bytes == b, "round \(round): the store is neither A nor B (\(bytes.count) octets)")
            if bytes == a { seen["A", default: 0] += 1 } else if bytes == b { seen["B", default: 0] += 1 }
            let loaded = try BondStoreFile(path: path).load()
            #expect(loaded.records.count == 40, "round \(round)")
            // At most the killed writer's temporary file remains; earlier ones were cleaned up.
            #expect(scratch.names().filter { $0.contains(".tmp-") }.count <= 1, "round \(round): \(scratch.names())")
        }
        #expect(seen["A", default: 0] + seen["B", default: 0] == 100)
    }
}
