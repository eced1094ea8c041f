import Foundation
import Glibc
import SimulatedTesting
import Testing

/// Beacons across stacks: `ble beacon range` sees a Bumble iBeacon with the exact UUID, major,
/// minor and measured power, and a Bumble scanner decodes `ble beacon emit` exactly — both
/// over stock Bumble controllers (Interop/bumble_controllers.py), the Bumble side played by
/// Interop/bumble_beacon_peer.py. Off with SWIFTBLE_INTEROP=0.
@Suite("Beacons between ble and Bumble", .serialized, .ownThread,
       .enabled(if: ProcessInfo.processInfo.environment["SWIFTBLE_INTEROP"] != "0", "SWIFTBLE_INTEROP=0 turns them off"))
struct BumbleBeaconInteropTests {
    private static let uuid = "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"

    private var beaconPeer: String { packageRoot().appendingPathComponent("Interop/bumble_beacon_peer.py").path }

    @Test("ble beacon range sees a Bumble iBeacon with its exact UUID, major, minor and measured power")
    func rangeSeesBumbleBeacon() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let python = try bumbleBeaconPython()
        let controllers = try BumbleControllers(python: python)
        defer { controllers.stop() }
        let advertiser = try LineProcess(python, [beaconPeer, "--port", "\(controllers.ports[0])", "ibeacon", "--uuid", Self.uuid,
                                                  "--major", "513", "--minor", "1027", "--power", "-67"])
        defer { advertiser.stop() }
        try #require(advertiser.waitForLine(containing: "\"advertising\"", timeoutSeconds: 120) != nil, "\(advertiser.output)")
        let range = try runProcess("/usr/bin/timeout", ["-s", "KILL", "60", executable, "beacon", "range", "--hci",
                                                        "tcp:127.0.0.1:\(controllers.ports[1])", "--uuid", Self.uuid,
                                                        "--seconds", "4", "--json"])
        #expect(range.status == 0, "\(range.stderr)")
        let beacon = try #require(jsonLines(range.stdout).last, "\(range.stdout)\n\(range.stderr)")
        #expect(beacon["format"] as? String == "iBeacon")
        #expect(beacon["uuid"] as? String == Self.uuid)
        #expect(beacon["major"] as? Int == 513)
        #expect(beacon["minor"] as? Int == 1027)
        #expect(beacon["measuredPower"] as? Int == -67)
        #expect(beacon["address"] as? String == "C0:BE:AC:00:00:01")
        // Stock Bumble reports every advertisement at -50 dBm (NOTES.md §0).
        #expect(beacon["rssi"] as? Int == -50)
    }

    @Test("a Bumble scanner decodes ble beacon emit exactly")
    func bumbleDecodesEmit() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let python = try bumbleBeaconPython()
        let controllers = try BumbleControllers(python: python)
        defer { controllers.stop() }
        // Stock Bumble accepts ADV_NONCONN_IND from the legacy commands and never sends it
        // (NOTES.md §3.3): --connectable sends the same octets as ADV_IND, as an iPhone does.
        let emitter = try LineProcess(executable, ["beacon", "emit", "--hci", "tcp:127.0.0.1:\(controllers.ports[0])", "--uuid", Self.uuid,
                                                   "--major", "65535", "--minor", "0", "--power", "-128", "--connectable", "--seconds", "60"])
        defer { emitter.stop() }
        try #require(emitter.waitForLine(containing: "Emitting", timeoutSeconds: 30) != nil, "\(emitter.output)")
        let scan = try runProcess("/usr/bin/timeout", ["-s", "KILL", "60", python, beaconPeer, "--port", "\(controllers.ports[1])",
                                                       "scan", "--seconds", "20", "--until-uuid", Self.uuid])
        #expect(scan.status == 0, "\(scan.stdout)\n\(scan.stderr)")
        let beacon = try #require(jsonLines(scan.stdout).first { $0["event"] as? String == "ibeacon" }, "\(scan.stdout)")
        #expect(beacon["uuid"] as? String == Self.uuid)
        #expect(beacon["major"] as? Int == 65535)
        #expect(beacon["minor"] as? Int == 0)
        #expect(beacon["measured_power"] as? Int == -128)
        #expect(beacon["data"] as? String == "0201061aff4c000215" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0" + "ffff" + "0000" + "80")
        #expect(beacon["address"] as? String == "F0:00:00:00:00:01")
        #expect(beacon["public"] as? Bool == true)
    }

    @Test("a Bumble scanner on ble sim serve decodes ble beacon emit sent as ADV_NONCONN_IND")
    func bumbleDecodesNonConnectableEmit() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let python = try bumbleBeaconPython()
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        defer { served.stop() }
        let emitter = try LineProcess(executable, ["beacon", "emit", "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--uuid", Self.uuid,
                                                   "--major", "1", "--minor", "2", "--seconds", "60"])
        defer { emitter.stop() }
        try #require(emitter.waitForLine(containing: "Emitting", timeoutSeconds: 30) != nil, "\(emitter.output)")
        let scan = try runProcess("/usr/bin/timeout", ["-s", "KILL", "60", python, beaconPeer, "--port", "\(served.ports[1])",
                                                       "scan", "--seconds", "20", "--until-uuid", Self.uuid])
        #expect(scan.status == 0, "\(scan.stdout)\n\(scan.stderr)")
        let beacon = try #require(jsonLines(scan.stdout).first { $0["event"] as? String == "ibeacon" }, "\(scan.stdout)")
        #expect(beacon["data"] as? String == "0201061aff4c000215" + "0f1e2d3c4b5a69788796a5b4c3d2e1f0" + "0001" + "0002" + "c5")
        #expect(beacon["connectable"] as? Bool == false)
        #expect(beacon["address"] as? String == served.devices[0].address)
    }
}

/// The Bumble virtual environment's Python: $BUMBLE_VENV or .venv-bumble at the root,
/// made by Interop/setup.sh when missing.
func bumbleBeaconPython() throws -> String {
    let venv = ProcessInfo.processInfo.environment["BUMBLE_VENV"] ?? packageRoot().appendingPathComponent(".venv-bumble").path
    let path = venv + "/bin/python"
    if !FileManager.default.isExecutableFile(atPath: path) {
        let setup = try runProcess("/bin/bash", [packageRoot().appendingPathComponent("Interop/setup.sh").path])
        guard setup.status == 0 else { throw ServeError(message: "Interop/setup.sh could not create \(venv): \(setup.stderr)") }
    }
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ServeError(message: "no Bumble environment at \(venv); run Interop/setup.sh")
    }
    return path
}

/// Interop/bumble_controllers.py: stock Bumble controllers on one link, served as H4/TCP.
/// Its stdin stays open (it stops at end of file); stopped by its PID.
final class BumbleControllers {
    private let process = Process()
    private let input = Pipe()
    let ports: [Int]

    init(python: String, count: Int = 2) throws {
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [packageRoot().appendingPathComponent("Interop/bumble_controllers.py").path, "-n", "\(count)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        var buffer = ""
        let deadline = Date().addingTimeInterval(30)
        var ports: [Int]?
        while ports == nil, Date() < deadline, process.isRunning {
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 200) > 0 else { continue }
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer += String(decoding: chunk, as: UTF8.self)
            for line in buffer.split(separator: "\n") where line.hasPrefix("READY ") {
                let ready = try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any]
                ports = ready?["ports"] as? [Int]
            }
        }
        guard let ports, ports.count == count else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ServeError(message: "bumble_controllers.py printed no READY line: \(buffer)")
        }
        self.ports = ports
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
