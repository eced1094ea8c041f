import Foundation
import Glibc

/// A `ble` process left running while a test does other things (an echo server, say):
/// its stdout goes to a temporary file the test reads as it grows; it is killed by PID.
final class BackgroundCommand {
    let process = Process()
    let outputPath: String

    init(executable: String, arguments: [String]) throws {
        outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("ble-background-\(getpid())-\(UInt32.random(in: 0 ... .max)).out").path
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath) else {
            throw ServeError(message: "cannot create \(outputPath)")
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try output.close()
    }

    /// What the process printed so far.
    var output: String {
        (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// The lines printed so far that parse as JSON objects.
    var jsonObjects: [[String: Any]] { jsonLines(output) }

    /// The `port` of the `READY {...}` line a server command (`ble backend`) prints once it
    /// listens, if it has printed it.
    var readyPort: Int? {
        output.split(separator: "\n").first { $0.hasPrefix("READY ") }
            .flatMap { (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8))) as? [String: Any] }?["port"] as? Int
    }

    /// Waits (up to `seconds`) until the output holds a line satisfying `predicate`; the
    /// output is re-read every 50 ms, as the process writes each line when it happens.
    func waitForLine(within seconds: Double, where predicate: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let found = jsonObjects.first(where: predicate) { return found }
            if !process.isRunning { return jsonObjects.first(where: predicate) }
            usleep(50_000)
        }
        return nil
    }

    /// The exit status once the process ended within `seconds`, else `nil` (it still runs).
    func waitForExit(within seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: outputPath)
    }
}

/// The lines of `text` that parse as JSON objects.
func jsonLines(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
}
