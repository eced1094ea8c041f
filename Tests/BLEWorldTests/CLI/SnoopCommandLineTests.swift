import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// `ble snoop` on a capture `ble` writes, and `--follow` on a capture still being written.
@Suite("ble snoop", .serialized, .ownThread)
struct SnoopCommandLineTests {
    @Test("A capture of ble scan decodes with nothing malformed")
    func scanCapture() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let path = temporaryPath("snoop-scan") + ".btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scan = try runProcess(executable, ["scan", "--seconds", "1", "--json", "--snoop", path, "--hci", "sim"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let decoded = try runProcess(executable, ["snoop", path, "--json"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let lines = jsonLines(decoded.stdout)
        #expect(lines.count > 10)
        #expect(lines.allSatisfy { $0["malformed"] as? Bool == false }, "\(lines.filter { $0["malformed"] as? Bool == true })")
        #expect(lines.contains { ($0["summary"] as? String)?.hasPrefix("LE Set Extended Scan Enable") == true })
        // The embedded world's controller claims the extended family, so a plain scan uses it.
        #expect(lines.contains { ($0["summary"] as? String)?.hasPrefix("LE Extended Advertising Report") == true })
    }

    @Test("--follow prints the packets appended after it started")
    func follow() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let path = temporaryPath("snoop-follow") + ".btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var writer = BTSnoop.Writer()
        let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
        let complete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        try Data(writer.bytes(forH4Packet: reset, direction: .sent, unixMicroseconds: 0)).write(to: URL(fileURLWithPath: path))
        let follower = try BackgroundCommand(executable: executable, arguments: ["snoop", path, "--follow", "--json"])
        defer { follower.stop() }
        #expect(follower.waitForLine(within: 30) { $0["number"] as? Int == 1 } != nil, "\(follower.output)")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        // A record written in two pieces is printed once it is whole.
        let record = try writer.bytes(forH4Packet: complete, direction: .received, unixMicroseconds: 1000)
        try handle.write(contentsOf: Data(record.prefix(10)))
        try handle.synchronize()
        try handle.write(contentsOf: Data(record.dropFirst(10)))
        try handle.close()
        let second = follower.waitForLine(within: 30) { $0["number"] as? Int == 2 }
        #expect((second?["summary"] as? String)?.hasPrefix("Command Complete (Reset)") == true, "\(follower.output)")
    }

    @Test("a capture that cannot be read says why: a missing file, a directory")
    func unreadableSaysWhy() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let missing = try runProcess(executable, ["snoop", "/nonexistent/scan.btsnoop"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Cannot read /nonexistent/scan.btsnoop: No such file or directory."), "\(missing.stderr)")
        let directory = try runProcess(executable, ["snoop", "/tmp"])
        #expect(directory.stderr.contains("Cannot read /tmp: it is a directory"), "\(directory.stderr)")
    }
    @Test("a file that is not a capture says so in words, not the decoder's field path")
    func notACapture() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let path = temporaryPath("snoop-text") + ".btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("this is a text file, not a capture\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try runProcess(executable, ["snoop", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(path) is not a btsnoop file: it does not begin with \"btsnoop\" and a zero octet."), "\(result.stderr)")
        #expect(!result.stderr.contains("BTSnoop.Header"), "\(result.stderr)")
    }

    @Test("--follow waits for a capture not created yet, as tail -F does, then prints its packets")
    func followWaitsForTheFile() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let path = temporaryPath("snoop-later") + ".btsnoop"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let follower = try BackgroundCommand(executable: executable, arguments: ["snoop", path, "--follow", "--json"])
        defer { follower.stop() }
        // It says that it waits (stderr shares the output file), and does not exit.
        let deadline = Date().addingTimeInterval(30)
        while !follower.output.contains("Waiting for"), follower.process.isRunning, Date() < deadline { usleep(50_000) }
        #expect(follower.output.contains("Waiting for \(path) to be created"), "\(follower.output)")
        #expect(follower.process.isRunning, "\(follower.output)")
        // Created empty first, as a writer opening it does; the header and a record follow.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        var writer = BTSnoop.Writer()
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(try writer.bytes(forH4Packet: [0x01, 0x03, 0x0C, 0x00], direction: .sent, unixMicroseconds: 0)))
        try handle.close()
        let first = follower.waitForLine(within: 30) { $0["number"] as? Int == 1 }
        #expect((first?["summary"] as? String)?.hasPrefix("Reset") == true, "\(follower.output)")
    }
}
