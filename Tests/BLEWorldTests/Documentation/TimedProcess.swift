import Foundation
import Synchronization

/// Runs a program to completion, or until `timeout` of wall-clock time has passed, and
/// collects its output. The bound is there so that a snippet that never ends fails the test
/// rather than hangs it; it is no assertion about speed, so it is generous.
/// - Parameters:
///   - environment: variables added to this process's own for the child.
///   - unsetting: variables of this process's own the child does not get.
/// - Returns: the result; a child stopped at the timeout has `timedOut` set.
func runProcess(_ executable: String, _ arguments: [String], directory: URL? = nil, environment: [String: String] = [:],
                unsetting: [String] = [], timeout: Duration) throws -> TimedProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty || !unsetting.isEmpty {
        var merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        for name in unsetting { merged[name] = nil }
        process.environment = merged
    }
    let output = ProcessOutput(of: process)
    try process.run()
    let timedOut = Mutex(false)
    let watchdog = DispatchWorkItem {
        guard process.isRunning else { return }
        timedOut.withLock { $0 = true }
        kill(process.processIdentifier, SIGKILL)
    }
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
    let (stdout, stderr) = output.collect()
    process.waitUntilExit()
    watchdog.cancel()
    return TimedProcessResult(status: process.terminationStatus, timedOut: timedOut.withLock { $0 },
                              stdout: stdout, stderr: stderr)
}

/// What a finished (or stopped) process printed and how it exited.
struct TimedProcessResult {
    var status: Int32
    /// Whether the process was killed at its timeout.
    var timedOut: Bool
    var stdout: String
    var stderr: String
}
