import Foundation
import SimulatedTesting
import Testing

/// `ble pair` against `ble serve` with out-of-band data (Core 5.4, Vol 3, Part H, §2.3.5.4,
/// §2.3.5.6.4), both the built executable, over a served world: the server prints its
/// Secure Connections data (`--oob-show`), the central takes it (`--oob-peer C:R`); legacy
/// pairs share `--oob-tk`; a changed C or another TK fails with Confirm Value Failed.
@Suite("ble pair and ble serve out of band", .serialized, .ownThread)
struct PairOutOfBandCommandLineTests {
    private static let patience = 60.0

    enum Cell: String, CaseIterable, Sendable {
        case legacy = "legacy TK"
        case secureConnections = "SC data from the server"
        case wrongConfirm = "SC, a changed C"
        case wrongKey = "legacy, another TK"
    }

    @Test("the central pairs with method oob using the server's data; a wrong value fails with 0x04 on both sides",
          arguments: Cell.allCases)
    func pairs(cell: Cell) throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let directory = temporaryPath("pair-oob")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0"])
        defer { served.stop() }
        let key = "000102030405060708090a0b0c0d0e0f"
        let legacy = cell == .legacy || cell == .wrongKey
        let serverOptions = legacy ? ["--legacy", "--oob-tk", key] : ["--oob-show"]
        let server = try BackgroundCommand(executable: executable, arguments: [
            "serve", packageRoot().appendingPathComponent("Interop/pair-server.yaml").path, "--hci",
            "tcp:127.0.0.1:\(served.ports[0])", "--bonds", directory + "/server.json", "--seconds", "300"] + serverOptions)
        defer { server.stop() }
        #expect(server.waitForLine(within: Self.patience) { $0["event"] as? String == "advertising" } != nil, "\(server.output)")

        var centralOptions: [String]
        switch cell {
        case .legacy: centralOptions = ["--legacy", "--oob-tk", key]
        case .wrongKey: centralOptions = ["--legacy", "--oob-tk", "000102030405060708090a0b0c0d0e1f"]
        case .secureConnections, .wrongConfirm:
            let oob = try #require(server.waitForLine(within: Self.patience) { $0["event"] as? String == "oob" }, "\(server.output)")
            #expect(oob["address"] as? String == served.devices[0].address)
            var confirm = try #require(oob["confirm"] as? String)
            let random = try #require(oob["random"] as? String)
            #expect(confirm.count == 32 && random.count == 32)
            if cell == .wrongConfirm { confirm = String(confirm.dropLast()) + (confirm.hasSuffix("0") ? "1" : "0") }
            centralOptions = ["--oob-peer", "\(confirm):\(random)"]
        }
        let pair = try runProcess(executable, [
            "pair", served.devices[0].address, "--hci", "tcp:127.0.0.1:\(served.ports[1])", "--json", "--timeout", "60",
            "--bonds", directory + "/central.json"] + centralOptions)

        if cell == .wrongConfirm || cell == .wrongKey {
            #expect(pair.status != 0)
            // SC: the central checks the server's C; legacy: the server (responder) checks Mconfirm.
            let detector = cell == .wrongConfirm ? "we sent" : "the device sent"
            #expect(pair.stderr.contains("Pairing failed: \(detector) Confirm Value Failed (0x04)"), "\(pair.stderr)")
            let failed = server.waitForLine(within: Self.patience) { $0["event"] as? String == "pairingFailed" }
            #expect(failed?["reason"] as? Int == 4, "\(server.output)")
            #expect(failed?["sent"] as? Bool == (cell == .wrongKey))
            return
        }
        #expect(pair.status == 0, "\(pair.stderr)")
        let outcome = try #require(jsonLines(pair.stdout).first { $0["event"] as? String == "paired" }, "\(pair.stdout)")
        #expect(outcome["method"] as? String == "oob")
        #expect(outcome["level"] as? Int == (legacy ? 3 : 4))
        #expect(outcome["sc"] as? Bool == !legacy)
        #expect(outcome["bonded"] as? Bool == true)
        let paired = server.waitForLine(within: Self.patience) { $0["event"] as? String == "paired" }
        #expect(paired?["method"] as? String == "oob", "\(server.output)")
        #expect(paired?["level"] as? Int == (legacy ? 3 : 4))

        // The bond re-encrypts: a read of the protected value needs no new pairing.
        let handle = try #require(Self.secretHandle(server), "\(server.output)")
        let read = try runProcess(executable, [
            "gatt", "read", served.devices[0].address, String(format: "0x%04X", handle), "--hci",
            "tcp:127.0.0.1:\(served.ports[1])", "--timeout", "60", "--bonds", directory + "/central.json"] + centralOptions)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("736563726574"), "\(read.stdout)")
        #expect(read.stderr.contains("Encrypted with the stored bond"), "\(read.stderr)")
        #expect(server.jsonObjects.filter { $0["event"] as? String == "paired" }.count == 1, "\(server.output)")
    }

    /// The value handle of the protected characteristic in `ble serve`'s database line.
    static func secretHandle(_ server: BackgroundCommand) -> Int? {
        let database = server.jsonObjects.first { $0["event"] as? String == "database" }
        let services = database?["services"] as? [[String: Any]] ?? []
        let characteristics = services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }
        return characteristics.first { ($0["uuid"] as? String)?.uppercased() == "D7A30001-6C5A-4A7E-9B1E-5F0C2A9E00F1" }?["valueHandle"] as? Int
    }
}
