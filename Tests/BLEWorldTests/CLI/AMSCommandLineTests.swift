import Foundation
import SimulatedTesting
import Testing

/// `ble ams consumer` (the accessory) against `ble ancs provider` (the phone) as two
/// processes on two devices of one served world: how it ends, and with which status.
@Suite("ble ams consumer command line", .serialized, .ownThread)
struct AMSCommandLineTests {
    private static let patience = 120.0

    @Test("ams consumer exits non-zero when the remote cannot start on the phone")
    func failureExitsNonZero() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--speed", "5"])
        defer { served.stop() }
        let remote = try BackgroundCommand(executable: executable, arguments: [
            "ams", "consumer", "--command", "play", "--json", "--seconds", "600", "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        defer { remote.stop() }
        #expect(remote.waitForLine(within: Self.patience) { $0["event"] as? String == "advertising" } != nil, "\(remote.output)")
        // A phone serving ANCS only: the remote finds no Apple Media Service.
        let phone = try BackgroundCommand(executable: executable, arguments: [
            "ancs", "provider", "--notification", "email:com.apple.mobilemail:Hello", "--json", "--seconds", "600",
            "--hci", "tcp:127.0.0.1:\(served.ports[0])"])
        defer { phone.stop() }
        let status = remote.waitForExit(within: Self.patience)
        #expect(status == 1, "\(remote.output)")
        #expect(remote.jsonObjects.contains { $0["event"] as? String == "error" }, "\(remote.output)")
    }

    @Test("ams consumer --count counts now-playing updates and ends only after its commands were sent")
    func countWaitsForCommands() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--speed", "5"])
        defer { served.stop() }
        let remote = try BackgroundCommand(executable: executable, arguments: [
            "ams", "consumer", "--command", "play", "--count", "1", "--json", "--seconds", "600",
            "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        defer { remote.stop() }
        #expect(remote.waitForLine(within: Self.patience) { $0["event"] as? String == "advertising" } != nil, "\(remote.output)")
        let phone = try BackgroundCommand(executable: executable, arguments: [
            "ancs", "provider", "--now-playing", "Ludwig:Ode to Joy:240", "--json", "--seconds", "600",
            "--hci", "tcp:127.0.0.1:\(served.ports[0])"])
        defer { phone.stop() }
        let status = remote.waitForExit(within: Self.patience)
        #expect(status == 0, "\(remote.output)")
        #expect(remote.jsonObjects.contains { $0["event"] as? String == "command" && $0["outcome"] as? String == "sent" }, "\(remote.output)")
        // The commands the player supports are a JSON array, not a comma string.
        let commands = remote.jsonObjects.first { $0["event"] as? String == "commands" }?["commands"] as? [String]
        #expect(commands?.contains("play") == true, "\(remote.output)")
        let play = phone.waitForLine(within: Self.patience) { $0["event"] as? String == "command" && $0["command"] as? String == "play" }
        #expect(play != nil, "\(phone.output)")
    }
}
