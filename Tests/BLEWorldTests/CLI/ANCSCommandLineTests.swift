import Foundation
import SimulatedTesting
import Testing

/// `ble ancs provider` (the phone) and `ble ancs consumer` (the accessory) as two processes
/// on two devices of one served world: the accessory pairs when refused, shows the
/// notifications the phone holds (pre-existing), and declines the call, which the phone
/// reports.
@Suite("ble ancs provider and consumer", .serialized, .ownThread)
struct ANCSCommandLineTests {
    private static let patience = 120.0

    @Test("The consumer shows the phone's notifications with app names and declines the call; the phone sees the decline")
    func providerAndConsumer() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--speed", "5"])
        defer { served.stop() }
        let consumer = try BackgroundCommand(executable: executable, arguments: [
            "ancs", "consumer", "--name", "Light", "--perform", "negative", "--count", "2", "--json", "--seconds", "600",
            "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        defer { consumer.stop() }
        #expect(consumer.waitForLine(within: Self.patience) { $0["event"] as? String == "advertising" } != nil, "\(consumer.output)")
        let provider = try BackgroundCommand(executable: executable, arguments: [
            "ancs", "provider", "--notification", "incomingCall:com.apple.mobilephone:William T. Riker",
            "--notification", "email:com.apple.mobilemail:Away team:Report to the transporter room",
            "--app-name", "com.apple.mobilephone=Phone", "--app-name", "com.apple.mobilemail=Mail",
            "--json", "--seconds", "600", "--hci", "tcp:127.0.0.1:\(served.ports[0])"])
        defer { provider.stop() }
        let action = provider.waitForLine(within: Self.patience) { $0["event"] as? String == "action" }
        #expect(action?["action"] as? String == "negative", "\(provider.output)\n\(consumer.output)")
        #expect(action?["title"] as? String == "William T. Riker")
        // The consumer prints the second notification after it acted on the first.
        let second = consumer.waitForLine(within: Self.patience) { $0["event"] as? String == "added" && $0["title"] as? String == "Away team" }
        #expect(second != nil, "\(consumer.output)")
        let lines = consumer.jsonObjects
        #expect(lines.contains { $0["event"] as? String == "session" }, "\(consumer.output)")
        let added = lines.filter { $0["event"] as? String == "added" }
        #expect(added.map { $0["title"] as? String } == ["William T. Riker", "Away team"], "\(consumer.output)")
        #expect(added.map { $0["appName"] as? String } == ["Phone", "Mail"])
        #expect(added.allSatisfy { $0["preExisting"] as? Bool == true })
        #expect(added.last?["message"] as? String == "Report to the transporter room")
        let performed = consumer.waitForLine(within: Self.patience) { $0["event"] as? String == "perform" && $0["outcome"] as? String == "performed" }
        #expect(performed != nil, "\(consumer.output)")
    }

    @Test("ble ams consumer prints the phone's now-playing and its commands reach the phone's player")
    func mediaRemote() throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let served = try ServedWorld(executable: executable, arguments: ["sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--speed", "5"])
        defer { served.stop() }
        let remote = try BackgroundCommand(executable: executable, arguments: [
            "ams", "consumer", "--name", "Remote", "--command", "play", "--command", "volumeUp", "--json", "--seconds", "600",
            "--hci", "tcp:127.0.0.1:\(served.ports[1])"])
        defer { remote.stop() }
        #expect(remote.waitForLine(within: Self.patience) { $0["event"] as? String == "advertising" } != nil, "\(remote.output)")
        let phone = try BackgroundCommand(executable: executable, arguments: [
            "ancs", "provider", "--now-playing", "Ludwig:Ode to Joy:240", "--json", "--seconds", "600",
            "--hci", "tcp:127.0.0.1:\(served.ports[0])"])
        defer { phone.stop() }
        let volume = phone.waitForLine(within: Self.patience) { $0["event"] as? String == "command" && $0["command"] as? String == "volumeUp" }
        #expect(volume != nil, "\(phone.output)\n\(remote.output)")
        #expect(phone.jsonObjects.compactMap { $0["command"] as? String } == ["play", "volumeUp"])
        let playing = remote.waitForLine(within: Self.patience) { $0["attribute"] as? String == "playbackInfo" && ($0["value"] as? String)?.hasPrefix("1,") == true }
        #expect(playing != nil, "\(remote.output)")
        // The phone received volumeUp; its new volume reaches the remote as an update of its own.
        let louder = remote.waitForLine(within: Self.patience) { $0["attribute"] as? String == "volume" && $0["value"] as? String == "0.563" }
        #expect(louder != nil, "\(remote.output)")
        let updates = remote.jsonObjects.filter { $0["event"] as? String == "update" }
        #expect(updates.contains { $0["attribute"] as? String == "title" && $0["value"] as? String == "Ode to Joy" })
        #expect(updates.contains { $0["attribute"] as? String == "duration" && $0["value"] as? String == "240.000" })
    }
}
