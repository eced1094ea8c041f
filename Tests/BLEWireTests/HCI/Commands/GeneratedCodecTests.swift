import Foundation
import Testing

/// The fixed-shape HCI codecs are generated from their declarations
/// (docs/decisions/0060-fixed-shape-codecs-are-generated.md): each committed
/// `*.generated.swift` must be what `scripts/generate-wire-codecs.py` writes today.
@Suite("generated HCI codecs")
struct GeneratedCodecTests {
    @Test("Every committed *.generated.swift matches the declarations it was generated from")
    func generatedFilesAreCurrent() throws {
        // Tests/BLEWireTests/HCI/Commands/GeneratedCodecTests.swift → the repository root.
        var root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0 ..< 5 { root = root.deletingLastPathComponent() }
        let script = root.appendingPathComponent("scripts/generate-wire-codecs.py")
        let python = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let python, FileManager.default.fileExists(atPath: script.path) else {
            print("generated HCI codecs: skipped, \(python == nil ? "python3 is not installed" : "\(script.path) is missing")")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, "--check"]
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: data, as: UTF8.self))")
    }
}
