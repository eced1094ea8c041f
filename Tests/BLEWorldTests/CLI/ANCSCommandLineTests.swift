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
        let lines = consumer.jsonObjects
        #expect(lines.contains { $0["event"] as? String == "session" }, "\(consumer.output)")
        let added = lines.filter { $0["event"] as? String == "added" }
        #expect(added.map { $0["title"] as? String } == ["William T. Riker", "Away team"], "\(consumer.output)")
        #expect(added.map { $0["appName"] as? String } == ["Phone", "Mail"])
        #expect(added.allSatisfy { $0["preExisting"] as? Bool == true })
        #expect(added.last?["message"] as? String == "Report to the transporter room")
        #expect(lines.contains { $0["event"] as? String == "perform" && $0["outcome"] as? String == "performed" }, "\(consumer.output)")
    }
}
