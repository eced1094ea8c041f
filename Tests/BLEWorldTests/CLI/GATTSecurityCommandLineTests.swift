import Foundation
import SimulatedTesting
import Testing

/// `ble gatt read` of a value only an encrypted link may read, as BlueZ's and iOS's users
/// expect: without any pairing option it uses the bond `ble pair` stored (the default store,
/// here `$SWIFTBLE_BONDS`), or pairs once when there is none, and reads; when pairing fails
/// the server's original ATT error is what the command reports. The server is `ble serve`
/// with a file whose permission is `readEncryptionRequired` alone, as Apple's guide writes
/// it. All are the built executable over a served world.
@Suite("ble gatt read of a protected value", .serialized, .ownThread)
struct GATTSecurityCommandLineTests {
    private static let patience = 60.0
    private static let valueUUID = "D7A30002-6C5A-4A7E-9B1E-5F0C2A9E00F1"
    private static let file = """
        name: Vault
        services:
          - uuid: d7a30002-6c5a-4a7e-9b1e-5f0c2a9e00f0
            characteristics:
              - uuid: d7a30002-6c5a-4a7e-9b1e-5f0c2a9e00f1
                properties: [read]
                permissions: [readEncryptionRequired]
                value: {utf8: "vault"}
        """

    /// A served world of two devices and `ble serve` on the first with `serverOptions`.
    private static func start(_ executable: String, directory: String, serverOptions: [String])
        throws -> (ServedWorld, BackgroundCommand, handle: String) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try file.write(toFile: directory + "/vault.yaml", atomically: true, encoding: .utf8)
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        let server = try BackgroundCommand(executable: executable, arguments: [
            "serve", directory + "/vault.yaml", "--hci", "tcp:127.0.0.1:\(served.ports[0])", "--bonds", directory + "/server.json",
            "--seconds", "300"] + serverOptions)
        let database = server.waitForLine(within: patience) { $0["event"] as? String == "database" }
        let services = database?["services"] as? [[String: Any]] ?? []
        let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        let handle = characteristics.first { ($0["uuid"] as? String)?.uppercased() == valueUUID }?["valueHandle"] as? Int
        _ = server.waitForLine(within: patience) { $0["event"] as? String == "advertising" }
        return (served, server, String(format: "0x%04X", handle ?? 0))
    }

    /// `ble ARGUMENTS` with `$SWIFTBLE_BONDS` set to `bonds` (no `--bonds` option).
    private static func ble(_ executable: String, bonds: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/env", ["SWIFTBLE_BONDS=\(bonds)", executable] + arguments)
    }

    @Test("after ble pair, ble gatt read without options encrypts with the stored bond and reads; no second pairing")
    func readsAfterPair() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let directory = temporaryPath("gatt-security")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (served, server, handle) = try Self.start(executable, directory: directory, serverOptions: [])
        defer { served.stop(); server.stop() }
        let address = served.devices[0].address, hci = "tcp:127.0.0.1:\(served.ports[1])"
        let pair = try Self.ble(executable, bonds: directory + "/central.json", ["pair", address, "--hci", hci, "--timeout", "60"])
        #expect(pair.status == 0, "\(pair.stderr)")
        let read = try Self.ble(executable, bonds: directory + "/central.json",
                                ["gatt", "read", address, handle, "--hci", hci, "--timeout", "60"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("7661756c74"), "the value \"vault\" in hex: \(read.stdout)")
        #expect(read.stderr.contains("Encrypted with the stored bond"), "\(read.stderr)")
        #expect(server.jsonObjects.filter { $0["event"] as? String == "paired" }.count == 1, "\(server.output)")
    }

    @Test("without a bond, ble gatt read without options pairs once on Insufficient Authentication and reads")
    func pairsOnceWithoutBond() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let directory = temporaryPath("gatt-security")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (served, server, handle) = try Self.start(executable, directory: directory, serverOptions: [])
        defer { served.stop(); server.stop() }
        let read = try Self.ble(executable, bonds: directory + "/central.json",
                                ["gatt", "read", served.devices[0].address, handle, "--hci", "tcp:127.0.0.1:\(served.ports[1])",
                                 "--timeout", "60"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("7661756c74"), "\(read.stdout)")
        #expect(server.jsonObjects.filter { $0["event"] as? String == "paired" }.count == 1, "\(server.output)")
        let saved = try String(contentsOfFile: directory + "/central.json", encoding: .utf8)
        #expect(saved.contains("peerIdentifier"), "the pairing's bond is kept in the default store: \(saved)")
    }

    @Test("when pairing fails, ble gatt read reports the server's Insufficient Authentication (0x05) and the pairing failure")
    func pairingFailureReportsOriginalError() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let directory = temporaryPath("gatt-security")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (served, server, handle) = try Self.start(executable, directory: directory, serverOptions: ["--sc-only"])
        defer { served.stop(); server.stop() }
        let read = try Self.ble(executable, bonds: directory + "/central.json",
                                ["gatt", "read", served.devices[0].address, handle, "--hci", "tcp:127.0.0.1:\(served.ports[1])",
                                 "--timeout", "60", "--legacy"])
        #expect(read.status != 0)
        #expect(read.stderr.contains("Pairing failed"), "\(read.stderr)")
        #expect(read.stderr.contains("Insufficient Authentication (0x05)"), "\(read.stderr)")
        #expect(server.jsonObjects.filter { $0["event"] as? String == "paired" }.isEmpty, "\(server.output)")
    }
}
