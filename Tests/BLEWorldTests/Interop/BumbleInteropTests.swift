import Foundation
import Glibc
import SimulatedTesting
import Testing

/// Whether to run the interop tests: always, unless SWIFTBLE_INTEROP=0 (for a machine with
/// no Python or no access to PyPI). They are part of the test command.
private let interopEnabled: Bool = ProcessInfo.processInfo.environment["SWIFTBLE_INTEROP"] != "0"

/// Bumble hosts (Interop/bumble_peer.py, installed by Interop/setup.sh) against the
/// controllers of `ble sim serve --devices 2`: the world's controllers must serve a third-party
/// host exactly as a chip would.
@Suite("Bumble hosts on ble sim serve", .serialized, .ownThread, .enabled(if: interopEnabled, "SWIFTBLE_INTEROP=0 turns them off"))
struct BumbleInteropTests {
    /// The Bumble virtual environment's Python: $BUMBLE_VENV or .venv-bumble at the root.
    private func python() throws -> String {
        let venv = ProcessInfo.processInfo.environment["BUMBLE_VENV"] ?? packageRoot().appendingPathComponent(".venv-bumble").path
        let path = venv + "/bin/python"
        if !FileManager.default.isExecutableFile(atPath: path) {
            // Interop/setup.sh is idempotent; .ci/run calls it too.
            let setup = try runProcess("/bin/bash", [packageRoot().appendingPathComponent("Interop/setup.sh").path])
            guard setup.status == 0 else {
                throw ServeError(message: "Interop/setup.sh could not create \(venv): \(setup.stderr)")
            }
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ServeError(message: "no Bumble environment at \(venv); run Interop/setup.sh")
        }
        return path
    }

    private var peerScript: String { packageRoot().appendingPathComponent("Interop/bumble_peer.py").path }

    /// The JSON objects a peer printed, one per line; other lines are skipped.
    private func events(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    private func server() throws -> ServedWorld {
        let ble = try #require(bleExecutable(), "the ble executable is not built")
        return try ServedWorld(executable: ble, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
    }

    @Test("A Bumble scanner sees the name from a Bumble advertiser's scan response")
    func scanResponseName() throws {
        let world = try server()
        defer { world.stop() }
        let advertiser = try LineProcess(try python(), [peerScript, "--port", "\(world.ports[0])", "advertise",
                                                        "--name", "SwiftBLE-Bumble"])
        defer { advertiser.stop() }
        // Until the peer's host is up nothing else can work: stop here rather than wait on.
        try #require(advertiser.waitForLine(containing: "\"advertising\"", timeoutSeconds: 120) != nil, "\(advertiser.output)")
        let scan = try runProcess("/usr/bin/timeout", ["-s", "KILL", "60", try python(), peerScript, "--port", "\(world.ports[1])", "scan",
                                                       "--seconds", "20", "--until-name", "SwiftBLE-Bumble"])
        let lines = events(scan.stdout)
        let summary = lines.last { $0["event"] as? String == "summary" }
        #expect(scan.status == 0, "\(scan.stdout)\n\(scan.stderr)")
        #expect((summary?["names"] as? [String])?.contains("SwiftBLE-Bumble") == true)
        #expect(lines.contains { $0["event"] as? String == "report" && $0["scan_response"] as? Bool == true
            && $0["name"] as? String == "SwiftBLE-Bumble" })
    }

    @Test("A Bumble client discovers and reads a Bumble GATT server, pairs with LE Secure Connections and reads an encrypted value")
    func gattAndPairing() throws {
        let world = try server()
        defer { world.stop() }
        let gattServer = try LineProcess(try python(), [peerScript, "--port", "\(world.ports[0])", "gatt-server"])
        defer { gattServer.stop() }
        try #require(gattServer.waitForLine(containing: "\"advertising\"", timeoutSeconds: 120) != nil, "\(gattServer.output)")
        let client = try runProcess("/usr/bin/timeout", ["-s", "KILL", "90", try python(), peerScript, "--port", "\(world.ports[1])",
                                                         "gatt-client", "C0:5B:00:00:00:02"])
        let lines = events(client.stdout)
        func event(_ name: String) -> [String: Any]? { lines.first { $0["event"] as? String == name } }
        #expect(client.status == 0, "\(client.stdout)\n\(client.stderr)")

        let services = event("discovered")?["services"] as? [[String: Any]] ?? []
        let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        func characteristic(_ uuid: String) -> [String: Any]? { characteristics.first { $0["uuid"] as? String == uuid } }
        #expect(services.compactMap { $0["uuid"] as? String }.contains("180F"))
        #expect(characteristic("2A19")?["value"] as? String == "57")
        #expect(characteristic("A7E3C0DE-5B1E-4E6B-9F00-000000000002")?["value"] as? String
            == Data("hello from bumble".utf8).map { String(format: "%02x", $0) }.joined())
        #expect(characteristic("A7E3C0DE-5B1E-4E6B-9F00-000000000003")?["error"] as? String == "INSUFFICIENT_ENCRYPTION")
        #expect(event("paired") != nil)
        #expect(event("secret")?["text"] as? String == "encrypted hello")
        #expect(event("disconnected") != nil)
        #expect(event("done")?["ok"] as? Bool == true)
    }
}

/// A child process whose stdout is read line by line while it runs; stopped by its PID.
final class LineProcess {
    private let process = Process()
    private let handle: FileHandle
    private(set) var output = ""

    /// Starts `executable`; with `standardError`, its standard error is read as lines too.
    init(_ executable: String, _ arguments: [String], standardError: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = standardError ? pipe : FileHandle.nullDevice
        handle = pipe.fileHandleForReading
        try process.run()
    }

    /// The `occurrence`th line containing `text` (the first by default), waiting at most
    /// `timeoutSeconds`.
    func waitForLine(containing text: String, timeoutSeconds: Double, occurrence: Int = 1) -> String? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            let matches = output.split(separator: "\n").filter { $0.contains(text) }
            if matches.count >= occurrence { return String(matches[occurrence - 1]) }
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else {
                if !process.isRunning { return nil }
                continue
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            output += String(decoding: chunk, as: UTF8.self)
        }
        return nil
    }

    /// Kills the process by its PID. SIGKILL, because a child can inherit a blocked SIGTERM
    /// from the test runner's threads and would then outlive the test.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
