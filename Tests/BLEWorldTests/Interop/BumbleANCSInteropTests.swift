import Foundation
import SimulatedTesting
import Testing

/// ANCS over stock Bumble controllers (Interop/bumble_controllers.py): our phone side
/// (`ble ancs provider`) with Bumble's own ANCS client as the accessory
/// (Interop/bumble_ancs_peer.py, bumble.profiles.ancs), and our two sides with each other.
/// Our hosts use random static addresses (Bumble's LocalLink routes ACL by random address,
/// docs/bumble-quirks.md). Off with SWIFTBLE_INTEROP=0.
@Suite("ANCS with Bumble", .serialized, .ownThread,
       .enabled(if: ProcessInfo.processInfo.environment["SWIFTBLE_INTEROP"] != "0", "SWIFTBLE_INTEROP=0 turns them off"))
struct BumbleANCSInteropTests {
    private static let patience = 90.0
    private static let notifications = [
        "--notification", "incomingCall:com.apple.mobilephone:William T. Riker",
        "--notification", "email:com.apple.mobilemail:Away team:Report to the transporter room",
    ]

    @Test("Bumble's ANCS client pairs with our phone side, reads both notifications and declines the call")
    func bumbleConsumer() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let python = try bumbleBeaconPython()
        let controllers = try BumbleControllers(python: python)
        defer { controllers.stop() }
        let accessory = try LineProcess(python, [packageRoot().appendingPathComponent("Interop/bumble_ancs_peer.py").path,
                                                 "--port", "\(controllers.ports[1])", "--count", "2", "--decline"])
        defer { accessory.stop() }
        try #require(accessory.waitForLine(containing: "\"advertising\"", timeoutSeconds: 120) != nil, "\(accessory.output)")
        let phone = try BackgroundCommand(executable: executable, arguments: [
            "ancs", "provider", "--json", "--seconds", "300", "--own-address", "C0:5F:00:00:00:51",
            "--hci", "tcp:127.0.0.1:\(controllers.ports[0])"] + Self.notifications)
        defer { phone.stop() }
        _ = accessory.waitForLine(containing: "\"done\"", timeoutSeconds: Self.patience)
        let lines = jsonLines(accessory.output)
        #expect(!lines.contains { $0["event"] as? String == "failed" }, "\(accessory.output)\n\(phone.output)")
        let seen = lines.filter { $0["event"] as? String == "notification" }
        #expect(seen.map { $0["title"] as? String } == ["William T. Riker", "Away team"], "\(accessory.output)")
        #expect(seen.map { $0["category"] as? Int } == [1, 6])
        #expect(seen.last?["message"] as? String == "Report to the transporter room")
        #expect(seen.allSatisfy { (($0["flags"] as? Int) ?? 0) & 0x04 != 0 }, "pre-existing: \(seen)")
        let action = phone.waitForLine(within: Self.patience) { $0["event"] as? String == "action" }
        #expect(action?["action"] as? String == "negative", "\(phone.output)")
    }

    @Test("Our accessory and our phone side over Bumble's controllers")
    func oursOverBumbleControllers() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built")
        let controllers = try BumbleControllers(python: try bumbleBeaconPython())
        defer { controllers.stop() }
        let accessory = try BackgroundCommand(executable: executable, arguments: [
            "ancs", "consumer", "--json", "--count", "2", "--perform", "negative", "--seconds", "300",
            "--own-address", "C0:5F:00:00:00:52", "--hci", "tcp:127.0.0.1:\(controllers.ports[1])"])
        defer { accessory.stop() }
        #expect(accessory.waitForLine(within: Self.patience) { $0["event"] as? String == "advertising" } != nil, "\(accessory.output)")
        let phone = try BackgroundCommand(executable: executable, arguments: [
            "ancs", "provider", "--json", "--seconds", "300", "--own-address", "C0:5F:00:00:00:51",
            "--hci", "tcp:127.0.0.1:\(controllers.ports[0])"] + Self.notifications)
        defer { phone.stop() }
        let action = phone.waitForLine(within: Self.patience) { $0["event"] as? String == "action" }
        #expect(action?["title"] as? String == "William T. Riker", "\(phone.output)\n\(accessory.output)")
        // The accessory prints the second notification after it acted on the first.
        _ = accessory.waitForLine(within: Self.patience) { $0["event"] as? String == "added" && $0["title"] as? String == "Away team" }
        let added = accessory.jsonObjects.filter { $0["event"] as? String == "added" }
        #expect(added.map { $0["title"] as? String } == ["William T. Riker", "Away team"], "\(accessory.output)")
    }
}
