import Foundation
import Glibc
import SimulatedTesting
import Testing

/// BlueZ (the kernel's SMP initiator, bluetoothd's bonding, bluetoothctl's agent) pairs with
/// `ble serve` in the variants our responder offers, and comes back encrypted with the bond.
/// Part of the guest suite (its checks run one at a time). Times are wall-clock: the peer is
/// another operating system in QEMU.
extension LinuxBlueZTests {
    /// What one pairing from BlueZ left: `ble serve`'s JSON lines, bluetoothctl's lines, and
    /// btmon's decoding of the kernel's capture and ours.
    struct PairingRun {
        var server: [[String: Any]]
        var serverOutput: String
        var bluetoothctl: String
        var status: String?
        var decoding: LinuxCaptures.Decoding

        /// `ble serve`'s connections, encryptions and pairings, in order.
        var securityEvents: [String] {
            server.compactMap { $0["event"] as? String }.filter { ["connected", "encrypted", "paired"].contains($0) }
        }
    }

    /// Pairs BlueZ with `ble serve` (the world's second device, with `security` options)
    /// through bluetoothctl_pair.sh (with `script` options) under btmon, reading the value
    /// only an encrypted link may read. With `typesPasskey`, the passkey `ble serve` displays
    /// is handed to bluetoothctl's agent, as a user would type it.
    func pairFromBlueZ(check: String, security: [String], script: String, typesPasskey: Bool = false) throws -> PairingRun {
        let fixture = try BridgedGuest.open()
        defer { fixture.close() }
        let guest = fixture.guest
        let world = fixture.world
        let ble = fixture.ble
        let captures = try LinuxCaptures(guest: guest, check: check)
        let snoop = FileManager.default.temporaryDirectory.appendingPathComponent("swiftble-linux-\(check)-\(getpid()).snoop").path
        let server = try LineProcess(ble, ["serve", LinuxGuest.interopDirectory + "/gatt-server.yaml", "--hci", "tcp:127.0.0.1:\(world.ports[1])",
                                           "--bonds", temporaryBondStore(), "--snoop", snoop] + security)
        defer { server.stop() }
        try #require(server.waitForLine(containing: "\"advertising\"", timeoutSeconds: 30) != nil, "\(server.output)")
        let passkeyFile = "/tmp/swiftble-passkey"
        _ = try guest.run("rm -f \(passkeyFile)", timeoutSeconds: 30)
        let pairing = try guest.start(LinuxCaptures.monitored("""
            bluetoothctl --timeout 8 scan on >/dev/null
            \(LinuxGuest.interopDirectory)/bluetoothctl_pair.sh \(peerAddress) d7a30105-6c5a-4a7e-9b1e-5f0c2a9e0001 \(script) \
                --passkey-file \(passkeyFile) 2>&1
            bluetoothctl info \(peerAddress)
            echo "swiftble: pairing check done"
            """))
        defer { pairing.stop() }
        if typesPasskey, let shown = server.waitForLine(containing: "\"event\": \"passkey\"", timeoutSeconds: 60) {
            let digits = shownDigits(shown, event: "passkey") ?? ""
            _ = try guest.run("echo \(digits) > \(passkeyFile).new && mv \(passkeyFile).new \(passkeyFile)", timeoutSeconds: 30)
        }
        _ = pairing.waitForLine(containing: "swiftble: pairing check done", timeoutSeconds: 360)
        let status = pairing.output.split(separator: "\n").last { $0.hasPrefix("bluetoothctl_pair.sh: finished") }.map(String.init)
        // The last event of a pairing is the link encrypted; a reconnection encrypts once more.
        _ = server.waitForLine(containing: "\"encrypted\"", timeoutSeconds: 10, occurrence: script.contains("--reconnect") ? 2 : 1)
        pairing.stop()
        server.stop()
        let decoding = try captures.decode(oursOnHost: snoop)
        try? FileManager.default.removeItem(atPath: snoop)
        return PairingRun(server: jsonLines(server.output), serverOutput: server.output, bluetoothctl: pairing.output, status: status,
                          decoding: decoding)
    }

    @Test("BlueZ pairs with ble serve by Passkey Entry: its agent (KeyboardOnly) types the passkey ble serve displays; authenticated, bonded, and encrypted again with the bond on reconnection")
    func bluezPairsByPasskey() throws {
        let run = try pairFromBlueZ(check: "passkey", security: ["--io", "display", "--mitm"],
                                    script: "--agent KeyboardOnly --reconnect", typesPasskey: true)
        #expect(run.status?.hasSuffix("status 0") == true, "\(run.bluetoothctl)\n\(run.serverOutput)")
        #expect(run.bluetoothctl.contains("Enter passkey"), "\(run.bluetoothctl)")
        let paired = run.server.filter { $0["event"] as? String == "paired" }
        #expect(paired.count == 1, "\(run.serverOutput)")
        #expect(paired.first?["method"] as? String == "passkey-peripheral-displays", "\(run.serverOutput)")
        #expect(paired.first?["sc"] as? Bool == true && paired.first?["bonded"] as? Bool == true, "\(run.serverOutput)")
        // Level 4: authenticated LE Secure Connections with a 16-octet key.
        #expect(paired.first?["level"] as? Int == 4, "\(run.serverOutput)")
        // Two links, each encrypted, one pairing: the second with the bond's key.
        #expect(run.securityEvents == ["connected", "encrypted", "paired", "connected", "encrypted"], "\(run.serverOutput)")
        let encrypted = run.server.filter { $0["event"] as? String == "encrypted" }
        #expect(encrypted.allSatisfy { $0["level"] as? Int == 4 && $0["keySize"] as? Int == 16 }, "\(run.serverOutput)")
        #expect(run.decoding.clean, "\(run.decoding.summary)")
    }

    @Test("BlueZ pairs with ble serve --legacy (LE legacy pairing, Just Works), bonds, and is encrypted again with the legacy key (EDIV and Rand) on reconnection")
    func bluezPairsLegacy() throws {
        let run = try pairFromBlueZ(check: "legacy", security: ["--legacy"], script: "--reconnect")
        #expect(run.status?.hasSuffix("status 0") == true, "\(run.bluetoothctl)\n\(run.serverOutput)")
        let paired = run.server.filter { $0["event"] as? String == "paired" }
        #expect(paired.count == 1, "\(run.serverOutput)")
        #expect(paired.first?["method"] as? String == "just-works", "\(run.serverOutput)")
        #expect(paired.first?["sc"] as? Bool == false && paired.first?["bonded"] as? Bool == true, "\(run.serverOutput)")
        #expect(run.securityEvents == ["connected", "encrypted", "paired", "connected", "encrypted"], "\(run.serverOutput)")
        #expect(run.decoding.clean, "\(run.decoding.summary)")
        // The pairing's LE Start Encryption carried the STK (EDIV and Rand zero), the
        // reconnection's the legacy LTK's EDIV and Rand, which are not.
        let btmonText = (try? String(contentsOfFile: run.decoding.folder + "/btmon.txt", encoding: .utf8)) ?? ""
        let diversifiers = btmonText.split(separator: "\n").filter { $0.contains("Encrypted diversifier:") }
        #expect(diversifiers.count == 2 && diversifiers.last?.contains("0x0000") == false, "\(diversifiers) \(run.decoding.summary)")
    }

    @Test("BlueZ pairs with ble serve by Numeric Comparison: both sides show the same six digits and confirm; authenticated and bonded")
    func bluezPairsByNumericComparison() throws {
        let run = try pairFromBlueZ(check: "numeric-comparison", security: ["--io", "yesno", "--mitm", "--accept"],
                                    script: "--agent DisplayYesNo")
        #expect(run.status?.hasSuffix("status 0") == true, "\(run.bluetoothctl)\n\(run.serverOutput)")
        let paired = run.server.filter { $0["event"] as? String == "paired" }
        #expect(paired.count == 1, "\(run.serverOutput)")
        #expect(paired.first?["method"] as? String == "numeric-comparison", "\(run.serverOutput)")
        #expect(paired.first?["level"] as? Int == 4 && paired.first?["bonded"] as? Bool == true, "\(run.serverOutput)")
        // The number ble serve shows is the one bluetoothctl's agent asks to confirm.
        let ours = run.serverOutput.split(separator: "\n").lazy.compactMap { shownDigits($0, event: "compare") }.first
        #expect(ours?.count == 6, "\(run.serverOutput)")
        #expect(ours.map { run.bluetoothctl.contains("Confirm passkey \($0)") } == true, "\(run.bluetoothctl)")
        #expect(run.decoding.clean, "\(run.decoding.summary)")
    }
}

/// The six digits of a line `ble` prints to show a passkey or a number to compare: `passkey
/// 012345` on a terminal, `{"event": "passkey", "passkey": "012345"}` among JSON lines.
func shownDigits(_ line: some StringProtocol, event: String) -> String? {
    if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] {
        return object["event"] as? String == event ? object[event] as? String : nil
    }
    guard line.hasPrefix(event + " ") else { return nil }
    return String(line).split(separator: " ").last.map(String.init)
}
