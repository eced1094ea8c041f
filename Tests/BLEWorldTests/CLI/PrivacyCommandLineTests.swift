import BLEWire
import Foundation
import Glibc
import SimulatedTesting
import Testing

/// `--privacy` on `ble advertise` and `ble scan` over TCP to a served world (Core 5.4,
/// Vol 3, Part C, §10.7): a stranger sees a private address, a bonded scanner the identity.
@Suite("ble --privacy over a served world", .serialized, .ownThread)
struct PrivacyCommandLineTests {
    static let advertiserIRK = "0f0e0d0c0b0a09080706050403020100"

    /// Runs `ble advertise --privacy` on device 0 with its IRK in a store file, then `ble
    /// scan --json` on device 1 with `scanArguments`; returns the advertisement's JSON.
    private func scanPrivateAdvertiser(_ scanArguments: [String], scannerStore: (String) -> String?) throws -> [String: Any] {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-privacy-\(getpid())-\(UInt32.random(in: 0 ... .max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        defer { served.stop() }
        let advertiserStore = directory + "/advertiser.json"
        try Data("""
        {"version": 1, "localIdentityResolvingKey": "\(Self.advertiserIRK)", "bonds": []}
        """.utf8).write(to: URL(fileURLWithPath: advertiserStore))
        let advertiser = Process()
        advertiser.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        advertiser.arguments = ["SWIFTBLE_BONDS=\(advertiserStore)", executable, "advertise", "--hci", "tcp:127.0.0.1:\(served.ports[0])",
                                "--name", "Hidden", "--privacy", "--seconds", "30"]
        advertiser.standardOutput = FileHandle.nullDevice
        try advertiser.run()
        defer {
            if advertiser.isRunning {
                kill(advertiser.processIdentifier, SIGKILL)
                advertiser.waitUntilExit()
            }
        }
        var environment: [String] = []
        if let text = scannerStore(served.devices[0].address) {
            let path = directory + "/scanner.json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            environment = ["SWIFTBLE_BONDS=\(path)"]
        }
        let scan = try runProcess("/usr/bin/env", environment + [
            executable, "scan", "--hci", "tcp:127.0.0.1:\(served.ports[1])", "--json", "--seconds", "4",
        ] + scanArguments)
        #expect(scan.status == 0, "\(scan.stderr)")
        let objects = scan.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return try #require(objects.first { $0["localName"] as? String == "Hidden" }, "\(scan.stdout)")
    }

    @Test("advertise --privacy: a scanner without our IRK sees a resolvable private address, not the public one")
    func strangerSeesPrivateAddress() throws {
        let advert = try scanPrivateAdvertiser([], scannerStore: { _ in nil })
        let text = try #require(advert["address"] as? String)
        let address = try #require(BluetoothAddress(text, kind: .random))
        #expect(address.value >> 46 == 0b01, "a resolvable private address: \(text)")
        #expect(advert["addressType"] as? String == "random")
    }

    @Test("scan --privacy with the advertiser's IRK in its bond store shows the advertiser's identity address")
    func bondedScannerSeesIdentity() throws {
        var identity = ""
        let advert = try scanPrivateAdvertiser(["--privacy"]) { address in
            identity = address
            return """
            {"version": 1, "bonds": [
              {"identityAddress": "\(address)", "identityAddressType": "public",
               "peerIdentifier": "0F000000-0000-4000-8000-000000000002", "keySize": 16, "securityLevel": "unauthenticated",
               "secureConnectionsLongTermKey": "00000000000000000000000000000042",
               "peerKeys": {"identityResolvingKey": "\(Self.advertiserIRK)"},
               "created": 1700000000, "updated": 1700000000}
            ]}
            """
        }
        #expect(advert["address"] as? String == identity)
    }
}
