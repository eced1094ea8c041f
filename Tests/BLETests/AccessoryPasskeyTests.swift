import BLE
import BLEWorld
import Foundation
import HeartRateMonitor
import SimulatedTesting
import Testing

/// A scenario GATT device with a display (`security: {io: displayOnly}`) asks the phone to
/// pair when it connects and shows the passkey; the phone's user (`pairing:` in `phone:`)
/// reads it and types it on the phone (Passkey Entry, Core 5.4, Vol 3, Part H, §2.3.5.3).
/// A wrong code fails the pairing with Confirm Value Failed (0x04, §3.5.5) and the device
/// asks again, with a new code, once its waiting interval is over (§2.3.6).
@Suite("A passkey shown by an accessory, typed by a scenario's user", .simulatedOnMainActor, .timeLimit(.minutes(5)))
struct AccessoryPasskeyTests {
    private static let player = PhoneStory(appPrograms: [
        "heart-rate-monitor": { _, log in HeartRateMonitor(restoreIdentifier: "heart-rate-monitor", onLog: { line in log(line) }) },
    ], accessoryPrograms: [:])

    static let strap = "Polar H10 5E1F0A2B"
    /// The strap's address, as the phone's dialogs name it.
    static let address = BluetoothAddress("C3:5E:1F:0A:2B:01", kind: .random)!

    /// heart-rate-restore with the strap's `security: {io: IO}` and the iPhone's
    /// `phone: {pairing: PAIRING}` (none when `nil`).
    static func scenario(io: String = "displayOnly", pairing: String?) throws -> Scenario {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var text = try String(contentsOf: root.appendingPathComponent("Scenarios/heart-rate-restore.yaml"), encoding: .utf8)
        let phone = "    host: external\n    apps:\n", gatt = "    gatt: [heart-rate, battery, device-information]\n"
        #expect(text.contains(phone) && text.contains(gatt))
        if let pairing { text = text.replacingOccurrences(of: phone, with: "    host: external\n    phone: {pairing: \(pairing)}\n    apps:\n") }
        text = text.replacingOccurrences(of: gatt, with: gatt + "    security: {io: \(io)}\n")
        return try ScenarioLoader.parse(yaml: text)
    }

    /// The phone's pairing lines: what the strap's display shows (the system's line) and the
    /// "Bluetooth" alerts, with their times in seconds.
    static func pairingLines(_ story: [PhoneStoryLine]) -> [(Double, String)] {
        story.filter { $0.device == "iPhone" && ($0.app == "Bluetooth" || ($0.app == "system" && $0.detail.contains(" on its display"))) }
            .map { (Double($0.time) / 1e6, $0.detail) }
    }

    /// The six digits of a "shows" or "types" line.
    static func code(_ line: String) -> String? {
        line.components(separatedBy: " ").first { $0.count == 6 && $0.allSatisfy(\.isNumber) }
    }

    @Test("The strap shows a code, the phone asks for it, the user types it 2 s later, and they pair by Passkey Entry")
    func typedRight() async throws {
        let story = try await Self.player.play(try Self.scenario(pairing: "{answer: pair, after: 2}"), until: 20_000_000, snoop: nil)
        let lines = Self.pairingLines(story)
        let shown = try #require(lines.first { $0.1.hasPrefix("“\(Self.strap)” shows ") }, "\(lines)")
        let asked = try #require(lines.first { $0.1 == "Bluetooth Pairing Request: enter the code shown on “\(Self.address)”." }, "\(lines)")
        let typed = try #require(lines.first { $0.1.hasPrefix("the user types ") }, "\(lines)")
        #expect(Self.code(typed.1) == Self.code(shown.1), "\(lines)")
        #expect(abs(typed.0 - max(shown.0, asked.0) - 2) < 0.001, "the user types 2 s after reading: \(lines)")
        let paired = try #require(lines.last, "\(lines)")
        #expect(paired.1 == "paired with “\(Self.address)” (passkeyPeripheralDisplays)", "\(lines)")
        #expect(!lines.contains { $0.1.contains("failed") }, "\(lines)")
    }

    @Test("Two codes mistyped: each attempt fails with Confirm Value Failed, the strap asks again with a new code, and the third, typed right, pairs")
    func mistypedTwice() async throws {
        let story = try await Self.player.play(try Self.scenario(pairing: "{answer: pair, after: 1, mistypes: 2}"), until: 24_000_000, snoop: nil)
        let lines = Self.pairingLines(story)
        let shown = lines.filter { $0.1.hasPrefix("“\(Self.strap)” shows ") }.compactMap { Self.code($0.1) }
        let typed = lines.filter { $0.1.hasPrefix("the user types ") }.compactMap { Self.code($0.1) }
        let failed = lines.filter { $0.1.hasPrefix("pairing with “\(Self.address)” failed") }
        #expect(shown.count == 3 && typed.count == 3, "\(lines)")
        #expect(failed.count == 2 && failed.allSatisfy { $0.1.contains("Confirm Value Failed (0x04)") }, "\(lines)")
        guard shown.count == 3, typed.count == 3 else { return }
        #expect(typed[0] != shown[0] && typed[1] != shown[1] && typed[2] == shown[2], "shown \(shown), typed \(typed)")
        #expect(lines.last?.1 == "paired with “\(Self.address)” (passkeyPeripheralDisplays)", "\(lines)")
    }

    @Test("The pairing encrypts the link and bonds the phone with the strap, which encrypts again with the bond on the next connection; with no display the strap asks for nothing")
    func encryptsAndBonds() async throws {
        let device = try await BLEDevice.open(scenario: try Self.scenario(pairing: nil), profile: .iPhone)
        let phone = SimulatedPhone(device: device)
        await phone.showsPairingDialogs(user: PairingUser(answer: .pair, after: .seconds(1)))
        let address = Self.address
        let connection = try await device.central.connect(to: address)
        try await testClock.sleep(seconds: 5)
        #expect(await connection.securityLevel != .none)
        #expect(await device.bondedPeers().map(\.identityAddress) == [address])
        #expect(phone.timeline.contains { $0.output == .alert(app: "Bluetooth", message: "paired with “\(address)” (passkeyPeripheralDisplays)") },
                "\(phone.timeline)")
        // Connected again, the bonded phone answers the strap's request with its key: no code.
        try await connection.disconnect()
        try await testClock.sleep(seconds: 1)
        let again = try await device.central.connect(to: address)
        try await testClock.sleep(seconds: 5)
        #expect(await again.securityLevel != .none)
        let shown = phone.timeline.filter { if case let .system(words) = $0.output { words.contains("on its display") } else { false } }
        #expect(shown.count == 1, "\(phone.timeline)")
        phone.close()
        await device.close()

        let plain = try await BLEDevice.open(scenario: try Self.scenario(io: "noInputNoOutput", pairing: nil), profile: .iPhone)
        let plainPhone = SimulatedPhone(device: plain)
        await plainPhone.showsPairingDialogs(user: PairingUser(answer: .pair))
        let link = try await plain.central.connect(to: address)
        try await testClock.sleep(seconds: 5)
        #expect(await link.securityLevel == .none)
        #expect(await plain.bondedPeers().isEmpty)
        plainPhone.close()
        await plain.close()
    }
}
