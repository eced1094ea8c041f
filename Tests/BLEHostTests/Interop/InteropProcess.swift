import Foundation
import Glibc
import SimulatedTesting
import Synchronization

/// The root of the package, found from this file's path.
func interopPackageRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}

/// Lines a child printed, shared with the pipe's reading handler; waits are woken by new
/// lines.
final class InteropLines: Sendable {
    private struct State {
        var lines: [String] = []
        var partial = ""
        var closed = false
        var waiters: [(id: Int, text: String, resume: CheckedContinuation<String?, Never>)] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    var all: [String] { state.withLock { $0.lines } }

    func append(_ data: Data) {
        state.withLock { state in
            if data.isEmpty {
                state.closed = true
            } else {
                state.partial += String(decoding: data, as: UTF8.self)
                while let newline = state.partial.firstIndex(of: "\n") {
                    state.lines.append(String(state.partial[..<newline]))
                    state.partial = String(state.partial[state.partial.index(after: newline)...])
                }
            }
            var kept: [(id: Int, text: String, resume: CheckedContinuation<String?, Never>)] = []
            for waiter in state.waiters {
                if let line = state.lines.first(where: { $0.contains(waiter.text) }) {
                    waiter.resume.resume(returning: line)
                } else if state.closed {
                    waiter.resume.resume(returning: nil)
                } else {
                    kept.append(waiter)
                }
            }
            state.waiters = kept
        }
    }

    /// The first line containing `text`, waiting at most `seconds`; `nil` if the child ended
    /// its output or the time passed first.
    func line(containing text: String, seconds: Double) async -> String? {
        await withCheckedContinuation { continuation in
            let id: Int? = state.withLock { state in
                if let line = state.lines.first(where: { $0.contains(text) }) {
                    continuation.resume(returning: line)
                    return nil
                }
                if state.closed {
                    continuation.resume(returning: nil)
                    return nil
                }
                state.nextID += 1
                state.waiters.append((state.nextID, text, continuation))
                return state.nextID
            }
            guard let id else { return }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                self.expire(id)
            }
        }
    }

    private func expire(_ id: Int) {
        state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return }
            state.waiters.remove(at: index).resume.resume(returning: nil)
        }
    }
}

/// A child process (Bumble's controllers or a Bumble peer) whose stdout is collected line by
/// line. Its stdin is a pipe we hold, so it sees end of file if this test process dies;
/// ``stop()`` kills it by its PID with SIGKILL.
final class InteropProcess {
    private let process = Process()
    private let input = Pipe()
    private let outputPipe = Pipe()
    let lines = InteropLines()

    /// Starts `executable`; with `mergingStandardError` its stderr joins the lines (for our
    /// own `ble`, whose one-sentence errors explain a failure), else it is discarded.
    init(_ executable: String, _ arguments: [String], mergingStandardError: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = outputPipe
        process.standardError = mergingStandardError ? outputPipe : FileHandle.nullDevice
        let lines = lines
        try process.run()
        readToEnd(of: outputPipe.fileHandleForReading, name: "interop output") { lines.append($0) }
    }

    /// The JSON objects printed so far, one per line; other lines are skipped.
    var events: [[String: Any]] {
        lines.all.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// The first JSON line whose "event" is `name`, waiting at most `seconds`.
    func event(_ name: String, seconds: Double) async -> [String: Any]? {
        guard let line = await lines.line(containing: "\"event\": \"\(name)\"", seconds: seconds) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Waits until the child has printed `count` JSON lines whose "event" is `name`, or
    /// `seconds` passed, or its output ended.
    func waitForEvents(_ name: String, count: Int, seconds: Double) async {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while events.filter({ $0["event"] as? String == name }).count < count, ContinuousClock.now < deadline, process.isRunning {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Writes one line to the child's stdin (a command for a Bumble peer).
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// SIGKILL by PID (a child may inherit a blocked SIGTERM from the runner's threads).
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// The Bumble virtual environment's Python ($BUMBLE_VENV or .venv-bumble at the root), made
/// with Interop/setup.sh when missing.
func bumblePython() throws -> String {
    let root = interopPackageRoot()
    let venv = ProcessInfo.processInfo.environment["BUMBLE_VENV"] ?? root.appendingPathComponent(".venv-bumble").path
    let python = venv + "/bin/python"
    if !FileManager.default.isExecutableFile(atPath: python) {
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/bin/bash")
        setup.arguments = [root.appendingPathComponent("Interop/setup.sh").path]
        setup.standardOutput = FileHandle.nullDevice
        try setup.run()
        setup.waitUntilExit()
    }
    guard FileManager.default.isExecutableFile(atPath: python) else {
        throw InteropError(message: "no Bumble environment at \(venv); run Interop/setup.sh")
    }
    return python
}

/// A set-up step of an interop test failed.
struct InteropError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
