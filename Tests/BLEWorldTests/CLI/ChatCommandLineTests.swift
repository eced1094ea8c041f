import BLEChat
import Foundation
import Testing

/// Issue #7's first "done when": two `ble chat` processes in a served world exchange
/// messages of 1 to 2,000 bytes each way, none lost, duplicated or reordered, also with
/// 10 % packet loss and a silent link drop. `SWIFTBLE_CHAT_COUNT` sets the number of
/// messages each way (default: the 1,000).
@Suite("ble chat command line", .serialized)
struct ChatCommandLineTests {
    /// Messages each way.
    private static var count: Int {
        ProcessInfo.processInfo.environment["SWIFTBLE_CHAT_COUNT"].flatMap { Int($0) } ?? 1000
    }

    /// Simulated seconds per wall-clock second in the served world: the link's timing is
    /// realistic (30 ms connection events), so the world runs faster than the clock.
    private static let speed = "10"

    @Test("Two chats exchange every message once and in order, each way")
    func cleanExchange() throws {
        try exchange(faults: [], expectDrop: false)
    }

    @Test("With 10 % packet loss and one silent link drop every message still arrives once and in order")
    func lossAndDrop() throws {
        try exchange(faults: ["--loss", "0.1", "--drop-link-after", "30"], expectDrop: true)
    }

    private func exchange(faults: [String], expectDrop: Bool) throws {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let count = Self.count
        let started = Date()
        let served = try ServedWorld(executable: executable, arguments: [
            "sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--speed", Self.speed] + faults)
        defer { served.stop() }
        let seeds: [UInt64] = [11, 22]
        let names = ["Alice", "Bob"]
        var chats: [BackgroundCommand] = []
        defer { for chat in chats { chat.stop() } }
        for index in 0 ..< 2 {
            chats.append(try BackgroundCommand(executable: executable, arguments: [
                "chat", "--name", names[index], "--peer", names[1 - index], "--hci", "tcp:127.0.0.1:\(served.ports[index])",
                "--send-count", "\(count)", "--min-size", "1", "--max-size", "2000", "--seed", "\(seeds[index])",
                "--timeout", "1800"]))
        }
        // Generous: a whole exchange, on a shared machine.
        let patience = 1800.0
        for chat in chats {
            let done = chat.waitForLine(within: patience) { $0["event"] as? String == "done" }
            #expect(done != nil, "\(chat.output.suffix(2000))")
        }
        let wall = Date().timeIntervalSince(started)
        print("ble chat: \(count) messages each way, faults \(faults), wall time \(Int(wall)) s")
        for index in 0 ..< 2 {
            let lines = chats[index].jsonObjects
            let partnerScript = ChatScript(count: count, sizes: 1 ... 2000, seed: seeds[1 - index])
            let received = lines.filter { $0["event"] as? String == "received" }
            #expect(received.map { $0["index"] as? Int } == (0 ..< count).map { $0 })
            let digests = received.compactMap { $0["digest"] as? String }
            let expected = partnerScript.messages.map(ChatScript.digest)
            #expect(digests.count == count)
            // Once each and in order: the received sequence is exactly the partner's script.
            #expect(digests == expected, "first difference at \(digests.indices.first { $0 >= expected.count || digests[$0] != expected[$0] } ?? -1)")
            #expect(received.compactMap { $0["size"] as? Int } == partnerScript.messages.map(\.count))
            let done = try #require(lines.first { $0["event"] as? String == "done" })
            #expect(done["received"] as? Int == count)
            if expectDrop {
                // The silent drop was noticed and the session re-established.
                #expect(lines.contains { $0["event"] as? String == "link" && $0["up"] as? Bool == false },
                        "\(chats[index].output.suffix(2000))")
                #expect((done["links"] as? Int ?? 0) >= 2)
            }
        }
    }
}
