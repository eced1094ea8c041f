import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// `ble snoop` on captures Bumble wrote (the wire decoders' fixtures), run as a user runs it.
@Suite("ble snoop on Bumble's captures", .serialized, .ownThread)
struct SnoopBumbleCaptureCommandLineTests {
    static let captures = ["bumble-gatt-server-sc-pairing.btsnoop", "bumble-scan-gatt-client-sc-pairing.btsnoop"]

    @Test("A Bumble capture prints one line and one JSON object per record, none malformed", arguments: captures)
    func bumbleCapture(_ name: String) throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let path = packageRoot().appendingPathComponent("Tests/BLEWireTests/Fixtures/\(name)").path
        // The record count from the file's own framing, not from the decoder under test.
        var reader = try BTSnoop.Reader(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        var records = 0
        while try reader.next() != nil { records += 1 }
        #expect(records > 100)

        let text = try runProcess(executable, ["snoop", path])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == records)
        #expect(!lines.contains { $0.contains("malformed") || $0.contains("cannot be read") },
                "\(lines.filter { $0.contains("malformed") || $0.contains("cannot be read") })")
        #expect(lines.first?.hasSuffix("> Command     Reset") == true, "\(lines.first ?? "")")

        // --verbose: the same packet lines, each followed by its fields indented below it.
        let verbose = try runProcess(executable, ["snoop", path, "--verbose"])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        let verboseLines = verbose.stdout.split(separator: "\n")
        #expect(verboseLines.filter { !$0.hasPrefix("        ") } == lines)
        #expect(verboseLines.contains("        Status: Success (0x00)"))

        let json = try runProcess(executable, ["snoop", path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let objects = jsonLines(json.stdout)
        #expect(objects.count == json.stdout.split(separator: "\n").count, "every line is a JSON object")
        #expect(objects.count == records)
        #expect(objects.compactMap { $0["number"] as? Int } == Array(1 ... records))
        #expect(objects.allSatisfy { $0["fields"] is [Any] }, "every object carries its fields")
        #expect(objects.allSatisfy { $0["malformed"] as? Bool == false },
                "\(objects.filter { $0["malformed"] as? Bool != false })")
    }
}
