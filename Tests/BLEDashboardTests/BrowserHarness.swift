import Foundation
import Testing

/// What the browser tests need on this machine: Debian's chromium and chromium-driver, and a
/// Python with Selenium — the interop virtual environment ($BUMBLE_VENV or .venv-bumble at the
/// package root, where .ci/run installs it) or the system's python3. ``missing`` says what is
/// not there, for the skip's reason.
enum BrowserHarness {
    static let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
    static let chromedriver = ProcessInfo.processInfo.environment["CHROMEDRIVER"] ?? "/usr/bin/chromedriver"

    /// The package's root, from this file's place in Tests/BLEDashboardTests.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The script that drives the page.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser/check_dashboard.py").path

    /// The first Python that imports Selenium.
    static let python: String? = {
        let venv = ProcessInfo.processInfo.environment["BUMBLE_VENV"] ?? packageRoot.appendingPathComponent(".venv-bumble").path
        for candidate in [venv + "/bin/python", "/usr/bin/python3"] where FileManager.default.isExecutableFile(atPath: candidate) {
            if (try? run(candidate, ["-c", "import selenium"])) == 0 { return candidate }
        }
        return nil
    }()

    /// Why the browser tests cannot run here, or `nil` when they can.
    static let missing: String? = {
        var lacking: [String] = []
        if !FileManager.default.isExecutableFile(atPath: chromium) { lacking.append("chromium (\(chromium))") }
        if !FileManager.default.isExecutableFile(atPath: chromedriver) { lacking.append("chromium-driver (\(chromedriver))") }
        if python == nil { lacking.append("a Python with selenium (.venv-bumble or python3)") }
        return lacking.isEmpty ? nil : lacking.joined(separator: ", ")
    }()

    /// The skip's reason, shown by `swift test`.
    static var skipReason: Comment {
        Comment(rawValue: "\(missing ?? "nothing") missing; .ci/run installs chromium, chromium-driver and selenium")
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A child process whose standard output arrives line by line and whose standard input takes lines.
final class LineProcess {
    private let process: Process
    private let input: Pipe
    /// The lines the process prints, until it exits.
    let lines: AsyncStream<String>

    /// Starts `executable` with `arguments`.
    init(_ executable: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let (stream, continuation) = AsyncStream<String>.makeStream()
        lines = stream
        try process.run()
        let reader = output.fileHandleForReading
        // A thread of its own, as reading a pipe blocks.
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[pending.startIndex ..< newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex ... newline)
                }
            }
            if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self)) }
            continuation.finish()
        }
    }

    /// Writes `line` and a newline to its standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for it to exit; returns its status.
    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Stops it if it still runs.
    func terminate() {
        if process.isRunning { process.terminate() }
    }
}

/// The suites that drive Chromium, one test at a time: two browsers and two worlds at once on
/// a loaded two-core machine starve each other's ticks.
@Suite("Pages in a browser", .serialized)
enum BrowserSuites {}
