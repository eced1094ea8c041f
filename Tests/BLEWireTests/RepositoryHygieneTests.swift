import Foundation
import Testing

/// The repository tracks sources, not what building or running them leaves behind.
@Suite("repository hygiene")
struct RepositoryHygieneTests {
    /// Why a tracked path is a build product, a cache or a stray capture; `nil` when it is fine.
    static func problem(with path: String) -> String? {
        let components = path.split(separator: "/").map(String.init)
        let name = components.last ?? path
        if components.contains(where: { $0 == ".build" || $0.hasPrefix(".build_") || $0.hasPrefix(".build-") }) { return "a build folder" }
        if components.contains(".swiftpm") { return "SwiftPM's local state" }
        if name == "Package.resolved" { return "a resolved dependency pin (the package is a library)" }
        if components.contains("__pycache__") || name.hasSuffix(".pyc") { return "compiled Python" }
        if name.hasSuffix(".sqlite") { return "a database" }
        if name.hasSuffix(".btsnoop") || name.hasSuffix(".pcap") {
            return components.dropLast().contains("Fixtures") ? nil : "a capture outside a Fixtures folder"
        }
        return nil
    }

    @Test("The rules name build products, caches and stray captures, and let fixtures and sources be")
    func rules() {
        #expect(Self.problem(with: ".build/debug/ble") != nil)
        #expect(Self.problem(with: "Package.resolved") != nil)
        #expect(Self.problem(with: "Interop/linux/__pycache__/agent_client.cpython-311.pyc") != nil)
        #expect(Self.problem(with: "tools/x.pyc") != nil)
        #expect(Self.problem(with: ".swiftpm/xcode/package.xcworkspace") != nil)
        #expect(Self.problem(with: "bonds.sqlite") != nil)
        #expect(Self.problem(with: "scan.btsnoop") != nil)
        #expect(Self.problem(with: "docs/capture.pcap") != nil)
        #expect(Self.problem(with: "Tests/BLEWireTests/Fixtures/bumble-gatt-server-sc-pairing.btsnoop") == nil)
        #expect(Self.problem(with: "Sources/BLEWire/Snoop/BTSnoop.swift") == nil)
        #expect(Self.problem(with: "Interop/linux/agent_client.py") == nil)
    }

    @Test("No tracked file is a build product, a cache or a capture outside Fixtures/")
    func trackedFiles() throws {
        // Tests/BLEWireTests/RepositoryHygieneTests.swift → the repository root.
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let git = ["/usr/bin/git", "/usr/local/bin/git", "/opt/homebrew/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let git, FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path) else {
            print("repository hygiene: skipped, \(git == nil ? "git is not installed" : "\(root.path) is not a git checkout")")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = ["-C", root.path, "ls-files", "-z"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print("repository hygiene: skipped, git ls-files exited with \(process.terminationStatus)")
            return
        }
        let paths = String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
        #expect(!paths.isEmpty)
        let problems = paths.compactMap { path in Self.problem(with: path).map { "\(path): \($0)" } }
        #expect(problems.isEmpty, "tracked files that should not be: \(problems)")
    }
}
