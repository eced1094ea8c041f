import Foundation
import SimulatedTesting
import Synchronization

/// The package's root, from this file's path.
func packageRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// Whether to run the Bumble interop tests: unless SWIFTBLE_INTEROP=0, as the other interop suites.
let bumbleInteropEnabled = ProcessInfo.processInfo.environment["SWIFTBLE_INTEROP"] != "0"

/// A Python child (an Interop/*.py Bumble script) whose output lines a test reads and whose
/// stdin takes commands; stdin is also its lifeline.
final class BumbleScript: Sendable {
    private let process: Process
    private let input: FileHandle
    private final class Output: Sendable {
        let state = Mutex<(lines: [String], partial: String)>(([], ""))
    }

    private let output = Output()
    /// Signalled once when the child exits (its termination handler).
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `script` with `arguments` on the Bumble venv's Python ($BUMBLE_VENV, else
    /// <root>/.venv-bumble).
    init(_ script: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.python())
        process.arguments = ["-u", packageRoot().appendingPathComponent("Interop/" + script).path] + arguments
        let stdout = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stdout
        process.standardInput = stdin
        self.process = process
        input = stdin.fileHandleForWriting
        let output = self.output
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        readToEnd(of: stdout.fileHandleForReading, name: "bumble peer output") { data in
            output.state.withLock { state in
                state.partial += String(decoding: data, as: UTF8.self)
                while let newline = state.partial.firstIndex(of: "\n") {
                    state.lines.append(String(state.partial[..<newline]))
                    state.partial = String(state.partial[state.partial.index(after: newline)...])
                }
            }
        }
    }

    /// The Bumble venv's Python, made with Interop/setup.sh (idempotent; .ci/run calls it too)
    /// when it is missing, as the other interop suites do.
    private static func python() throws -> String {
        let venv = ProcessInfo.processInfo.environment["BUMBLE_VENV"] ?? packageRoot().appendingPathComponent(".venv-bumble").path
        let python = venv + "/bin/python"
        if !FileManager.default.isExecutableFile(atPath: python) {
            let setup = Process()
            setup.executableURL = URL(fileURLWithPath: "/bin/bash")
            setup.arguments = [packageRoot().appendingPathComponent("Interop/setup.sh").path]
            setup.standardOutput = FileHandle.nullDevice
            try setup.run()
            setup.waitUntilExit()
        }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: python,
                                                        NSLocalizedDescriptionKey: "no Bumble environment at \(venv); run Interop/setup.sh"])
        }
        return python
    }

    /// Every line so far.
    var lines: [String] { output.state.withLock { $0.lines } }

    /// The first line containing `text`, waiting up to 60 s for it.
    func line(containing text: String) async -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while clock.now < deadline {
            if let found = lines.first(where: { $0.contains(text) }) { return found }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Sends one command line.
    func send(_ command: String) {
        try? input.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Ends the script: closes its lifeline, asks it to stop, and kills it if it has not
    /// exited 5 s later. It waits on the termination handler, not with `waitUntilExit`, which
    /// on Linux spins the run loop for as long as the child lives.
    func stop() {
        try? input.close()
        if process.isRunning { process.terminate() }
        if exited.wait(timeout: .now() + 5) == .timedOut, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
    }
}
