import BLEChat
import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// The chat across processes: two `ble chat` processes in a served world exchange
/// messages of 1 to 2,000 bytes each way, none lost, duplicated or reordered, also with
/// 10 % packet loss and a silent link drop. `SWIFTBLE_CHAT_COUNT` sets the number of
/// messages each way (default: 1,000). The chats run Examples/Chat's
/// `ChatEngine` on OpenCoreBluetooth unless a test asks for the front-door transport.
@Suite("ble chat command line", .serialized, .ownThread, .takesTurns)
struct ChatCommandLineTests {
    /// Messages each way.
    private static var count: Int {
        ProcessInfo.processInfo.environment["SWIFTBLE_CHAT_COUNT"].flatMap { Int($0) } ?? 1000
    }

    /// Simulated seconds per wall-clock second in the served world: the link's timing is
    /// realistic (30 ms connection events), so the world runs faster than the clock.
    private static let speed = "10"

    /// How long an exchange may take, in wall-clock seconds, for both chats together (and
    /// each chat's own `--timeout`): a 1,000-message exchange takes about a minute alone on
    /// a 2-core machine and ten with a Linux guest emulated beside it; a chat that stalls
    /// fails the test rather than holding CI.
    private static let patience = 900.0

    @Test("Two chats exchange every message once and in order, each way")
    func cleanExchange() throws {
        guard let lines = try exchange(count: Self.count, faults: []) else { return }
        // The peripheral filled its transmit queue: updateValue returned false and the
        // ready callback resumed it (back-pressure, not loss).
        let deferred = lines.compactMap { output in
            output.first { $0["event"] as? String == "done" }?["notificationsDeferred"] as? Int
        }
        #expect(deferred.count == 2)
        #expect(deferred.reduce(0, +) > 0)
    }

    @Test("With 10 % packet loss and one silent link drop every message still arrives once and in order")
    func lossAndDrop() throws {
        guard let lines = try exchange(count: Self.count, faults: ["--loss", "0.1", "--drop-link-after", "30"]) else { return }
        for output in lines {
            // The silent drop was noticed and the session re-established.
            #expect(output.contains { $0["event"] as? String == "link" && $0["up"] as? Bool == false })
            let done = output.first { $0["event"] as? String == "done" }
            #expect((done?["links"] as? Int ?? 0) >= 2)
        }
    }

    @Test("The front-door transport keeps the same promise with 10 % loss and a silent drop")
    func frontDoorLossAndDrop() throws {
        guard let lines = try exchange(count: Swift.min(200, Self.count), faults: ["--loss", "0.1", "--drop-link-after", "5"],
                                       chat: ["--api", "frontdoor"]) else { return }
        for output in lines {
            #expect(output.contains { $0["event"] as? String == "link" && $0["up"] as? Bool == false })
        }
    }

    @Test("Heartbeats notice a silent drop before the link layer's supervision timeout, and the session resumes")
    func heartbeatsNoticeDrop() throws {
        // Real time, because the chats are processes of their own. The chat app's links keep
        // an iPhone's 720 ms supervision timeout; the world at half speed spreads it over
        // 1.44 s of the chats' clock, while heartbeats every 0.2 s miss three in 0.6 s
        // (0.7 s with the app's 100 ms tick), so the heartbeats win with room to spare.
        guard let lines = try exchange(count: 30, faults: ["--drop-link-after", "2"], speed: "0.5", chat: ["--heartbeat", "0.2"]) else { return }
        let reasons = lines.flatMap { output in
            output.filter { $0["event"] as? String == "link" && $0["up"] as? Bool == false }.compactMap { $0["reason"] as? String }
        }
        #expect(reasons.contains { $0.contains("heartbeats missed") }, "\(reasons)")
    }

    /// Runs two scripted chats in a served world and checks what each received against the
    /// partner's script; returns each chat's JSON lines.
    /// - Returns: `nil` when a chat stalled on unanswered HCI commands (recorded as a failure).
    @discardableResult
    private func exchange(count: Int, faults: [String], speed: String = Self.speed, chat: [String] = []) throws -> [[[String: Any]]]? {
        let executable = try #require(bleExecutable(), "the ble executable is not built; run swift build first")
        let started = Date()
        let served = try ServedWorld(executable: executable, arguments: [
            "sim", "serve", "--devices", "2", "--tcp-base-port", "0", "--speed", speed] + faults)
        defer { served.stop() }
        let seeds: [UInt64] = [11, 22]
        let names = ["Alice", "Bob"]
        var chats: [BackgroundCommand] = []
        defer { for chat in chats { chat.stop() } }
        for index in 0 ..< 2 {
            chats.append(try BackgroundCommand(executable: executable, arguments: [
                "chat", "--name", names[index], "--peer", names[1 - index], "--hci", "tcp:127.0.0.1:\(served.ports[index])",
                "--send-count", "\(count)", "--min-size", "1", "--max-size", "2000", "--seed", "\(seeds[index])",
                "--timeout", "\(Int(Self.patience))"] + chat))
        }
        let finished = Self.waitForBoth(chats, served: served)
        // A chat that stalled after its host logged unanswered commands: the world's side is
        // probed before anything is stopped, so the failure says whether the world still
        // answers a fresh Reset (a paced world behind its clock must, docs/time.md).
        let stalled = zip(chats, finished).contains { chat, done in !done && chat.output.contains(Self.commandTimeout) }
        if stalled {
            // Read before the probe stops the first chat, which takes its output file with it.
            let outputs = chats.map { $0.output.suffix(600) }
            let probe = Self.probe(served, chats: chats)
            Issue.record("a chat stalled after its host's HCI commands went unanswered: \(outputs); \(probe)")
            return nil
        }
        for (chat, done) in zip(chats, finished) {
            #expect(done, "\(chat.output.suffix(2000))")
        }
        let wall = Date().timeIntervalSince(started)
        print("ble chat: \(count) messages each way, faults \(faults), wall time \(Int(wall)) s")
        var outputs: [[[String: Any]]] = []
        for index in 0 ..< 2 {
            let lines = chats[index].jsonObjects
            outputs.append(lines)
            let partnerScript = ChatScript(count: count, sizes: 1 ... 2000, seed: seeds[1 - index])
            let received = lines.filter { $0["event"] as? String == "received" }
            #expect(received.map { $0["index"] as? Int } == (0 ..< count).map { $0 })
            let digests = received.compactMap { $0["digest"] as? String }
            let expected = partnerScript.messages.map(ChatScript.digest)
            #expect(digests.count == count)
            // Once each and in order: the received sequence is exactly the partner's script.
            #expect(digests == expected, "first difference at \(digests.indices.first { $0 >= expected.count || digests[$0] != expected[$0] } ?? -1)")
            #expect(received.compactMap { $0["size"] as? Int } == partnerScript.messages.map(\.count))
            let done = lines.first { $0["event"] as? String == "done" }
            #expect(done?["received"] as? Int == count)
            #expect(done?["sent"] as? Int == count)
        }
        return outputs
    }

    /// What a chat's host logs when the world does not answer one of its HCI commands.
    private static let commandTimeout = "got no Command Complete or Command Status before its timeout"

    /// Waits, up to ``patience``, until each chat has printed its `done` line or exited, and
    /// says which printed it. The first time a chat's host logs a command the world did not
    /// answer (``commandTimeout``), the stacks of the world and of both
    /// chats are printed at once, while the stall is fresh (``printStacks(_:chats:)``).
    private static func waitForBoth(_ chats: [BackgroundCommand], served: ServedWorld) -> [Bool] {
        let deadline = Date().addingTimeInterval(patience)
        var finished = chats.map { _ in false }
        var settled = finished
        var stacksPrinted = false
        while settled.contains(false), Date() < deadline {
            for index in chats.indices where !settled[index] {
                let running = chats[index].process.isRunning
                let output = chats[index].output
                if output.contains("\"done\""), jsonLines(output).contains(where: { $0["event"] as? String == "done" }) {
                    finished[index] = true
                    settled[index] = true
                } else if !running {
                    settled[index] = true
                }
                if !stacksPrinted, !finished[index], output.contains(commandTimeout) {
                    stacksPrinted = true
                    print("a chat's host logged an unanswered HCI command; the processes' threads now:")
                    printStacks(served, chats: chats)
                }
            }
            if settled.contains(false) { usleep(50_000) }
        }
        return finished
    }

    /// Prints each thread's stack of the world's process and of the chats still running, when
    /// gdb is installed.
    private static func printStacks(_ served: ServedWorld, chats: [BackgroundCommand]) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return }
        let processes = [("ble sim serve", served.process)] + chats.enumerated().map { ("chat \($0.offset)", $0.element.process) }
        for (name, process) in processes where process.isRunning {
            let stacks = try? runProcess("/usr/bin/timeout", ["-s", "KILL", "60", "/usr/bin/gdb", "-batch", "-p", "\(process.processIdentifier)",
                                                              "-ex", "thread apply all bt 16"])
            print("\(name)'s threads:\n\(stacks?.stdout ?? "")")
        }
    }

    /// Tells whether a stalled exchange's world still answers:
    /// stops the first chat, sends HCI Reset on its port itself and says whether Reset's
    /// Command Complete came back within five seconds, and if not, whether a second Reset's
    /// did. The world power-cycles a device whose host left, on a task of its own
    /// (`H4ConnectionHandler.channelInactive`), which may come after the first Reset and take
    /// it with it. The world may also still be sending events its controller queued for the
    /// chat (advertising reports of a scan left on), so those are skipped and counted, not
    /// taken for the answer.
    private static func probe(_ served: ServedWorld, chats: [BackgroundCommand]) -> String {
        chats[0].stop()
        do {
            let client = try TCPClient(port: served.ports[0])
            defer { client.close() }
            var events = H4Events()
            for attempt in ["first", "second"] {
                try client.send([0x01, 0x03, 0x0C, 0x00])
                events = H4Events()
                let deadline = Date().addingTimeInterval(5)
                while Date() < deadline {
                    // Empty only when nothing came until the deadline or the world closed the port.
                    let chunk = client.read(timeoutSeconds: max(0.1, deadline.timeIntervalSinceNow))
                    if chunk.isEmpty { break }
                    events.take(chunk)
                    if events.hasResetComplete {
                        return "the world answered the \(attempt) fresh Reset (after \(events.others) other packets)"
                    }
                }
            }
            return "the world answered neither of two fresh Resets within 5 s each (after the second: \(events.others) other packets, \(events.octets) octets)"
        } catch {
            return "the world's port refused a fresh host: \(error)"
        }
    }
}

/// The HCI packets in a stream of H4 octets from a controller, taken as they arrive and
/// framed by the wire module's `H4.StreamDecoder`: whether Reset's Command Complete is among
/// them, and how many other packets (events, or ACL data of a link the world still had) came
/// before or beside it.
private struct H4Events {
    private var decoder = H4.StreamDecoder()
    private(set) var hasResetComplete = false
    private(set) var others = 0
    private(set) var octets = 0

    /// Adds the next octets received and looks at every packet they complete.
    mutating func take(_ chunk: [UInt8]) {
        octets += chunk.count
        decoder.append(chunk)
        while true {
            let packet: H4.Packet?
            do {
                packet = try decoder.next()
            } catch {
                // An unknown packet indicator ends the framing; a bad but framed packet is skipped.
                if case .unknownCode = error.reason { return }
                others += 1
                continue
            }
            guard let packet else { return }
            if case let .event(eventPacket) = packet, case let .commandComplete(complete)? = try? HCI.Event(decoding: eventPacket),
               complete.opcode == .reset {
                hasResetComplete = true
            } else {
                others += 1
            }
        }
    }
}
