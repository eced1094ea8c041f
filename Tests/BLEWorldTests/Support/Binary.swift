import Foundation
import Synchronization

/// The built `ble` executable: next to the test bundle (SwiftPM puts every product of a
/// build in one directory), else where `swift build --show-bin-path` says.
func bleExecutable() -> String? {
    _ = isolatedDataHome
    var candidates: [URL] = []
    let testBinary = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    for _ in 0 ..< 4 {
        candidates.append(directory.appendingPathComponent("ble"))
        directory = directory.deletingLastPathComponent()
    }
    for bundle in Bundle.allBundles {
        candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("ble"))
    }
    if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found.path }
    let result = try? runProcess("/usr/bin/env", ["swift", "build", "--show-bin-path"], directory: packageRoot())
    if let path = result?.stdout.trimmingCharacters(in: .whitespacesAndNewlines), !path.isEmpty {
        let candidate = path + "/ble"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Every `ble` the tests start keeps its default bond stores under a directory of this test
/// process's own rather than the user's: a default store is named after the controller's
/// address, which every served world repeats, so runs must not meet each other's bonds.
/// Set once, before the first `ble` starts; a test that names its own store still does. The
/// directory, with the bonds the runs kept in it, goes when the test process exits.
private let isolatedDataHome: Void = {
    try? FileManager.default.createDirectory(atPath: isolatedDataHomePath(), withIntermediateDirectories: true)
    setenv("XDG_DATA_HOME", isolatedDataHomePath(), 1)
    atexit { try? FileManager.default.removeItem(atPath: isolatedDataHomePath()) }
}()

/// This test process's data directory for the `ble` processes it starts.
private func isolatedDataHomePath() -> String {
    NSTemporaryDirectory() + "swiftble-tests-data-\(getpid())"
}

/// The package's root directory, from this file's path.
func packageRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}

/// What a finished process printed and how it exited.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program to completion and collects its output.
func runProcess(_ executable: String, _ arguments: [String], directory: URL? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let output = ProcessOutput(of: process)
    try process.run()
    let (stdout, stderr) = output.collect()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
}

/// A child's two output pipes, read to their ends: stderr on a thread of its own while the
/// caller reads stdout, so a chatty child never blocks on a full pipe.
struct ProcessOutput {
    private let out = Pipe()
    private let err = Pipe()

    /// Pipes attached to `process`'s stdout and stderr (before it runs).
    init(of process: Process) {
        process.standardOutput = out
        process.standardError = err
    }

    /// Everything the child printed on each, once it closed them.
    func collect() -> (stdout: String, stderr: String) {
        let errorBytes = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        let err = err
        let reader = Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errorBytes.withLock { $0 = data }
            done.signal()
        }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        return (String(decoding: outData, as: UTF8.self), String(decoding: errorBytes.withLock { $0 }, as: UTF8.self))
    }
}
