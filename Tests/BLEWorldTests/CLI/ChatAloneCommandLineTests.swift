import Foundation
import SimulatedTesting
import Testing

/// `ble chat` with nobody to chat with, on the default embedded world: it says what it looks
/// for, ends when there is nothing to wait for, and says why what was typed went nowhere.
@Suite("ble chat alone on sim", .ownThread)
struct ChatAloneCommandLineTests {
    /// Runs `ble chat` with `input` on its stdin (then end of input), killed after 120 s.
    private func chat(_ arguments: [String], input: String) throws -> ProcessResult {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "120", executable, "chat"] + arguments + ["--hci", "sim"]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Both outputs are a few lines: read one after the other, no pipe fills.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                             stderr: String(decoding: err, as: UTF8.self))
    }

    @Test("--send-count 0 has nothing to send or wait for: it is done without a partner, not at the timeout")
    func sendCountZero() throws {
        let result = try chat(["--name", "Solo", "--send-count", "0", "--timeout", "100"], input: "")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(jsonLines(result.stdout).contains { $0["event"] as? String == "done" }, "\(result.stdout)")
        #expect(result.stderr.contains("looking for a chat partner on sim"), "\(result.stderr)")
    }

    @Test("typed lines and the end of input on sim: it leaves, saying that nothing was delivered and why")
    func endOfInputAlone() throws {
        let result = try chat(["--name", "Solo"], input: "hello\n")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("no chat partner was found; 1 message(s) typed were not delivered"), "\(result.stderr)")
        #expect(result.stderr.contains("has its own simulated world"), "\(result.stderr)")
    }
}
