import Foundation
import SimulatedTesting
import Testing

/// `ble --version`, as every command-line tool answers it.
@Suite("ble --version")
struct VersionCommandLineTests {
    @Test("--version prints the release and the Core edition, and exits 0")
    func version() throws {
        let path = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let result = try runProcess(path, ["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(line.wholeMatch(of: /SwiftBLE [0-9]+\.[0-9]+\.[0-9]+ \(Bluetooth Core Specification 5\.4\)/) != nil, "\(result.stdout)")
    }
}
