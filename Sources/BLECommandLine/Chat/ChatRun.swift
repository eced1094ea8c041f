import BLEChat
import BLEHost
import Foundation

/// One `ble chat` run on the main actor, where the chat engine and its Core Bluetooth-style
/// delegates live. Its timeout and linger are on the engine's clock (``ChatDriver/clock``),
/// the one its heartbeats keep.
@MainActor
final class ChatRun {
    private enum Input: Sendable {
        case engine(ChatEvent)
        case line(String)
        case inputClosed
        case tick
    }

    private let engine: any ChatDriver
    private let script: ChatScript?
    private let receiveCount: Int
    private let timeout: Double
    /// The controller spec (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    private let hci: String
    /// The partner's chat name asked for (`--peer`), if any.
    private let partnerName: String?
    private var received = 0
    private var names: [ChatDeviceID: String] = [:]

    init(engine: any ChatDriver, script: ChatScript?, receiveCount: Int, timeout: Double, hci: String, partnerName: String?) {
        self.engine = engine
        self.hci = hci
        self.partnerName = partnerName
        self.script = script
        self.receiveCount = receiveCount
        self.timeout = timeout
    }

    func run() async throws {
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        engine.onEvent = { continuation.yield(.engine($0)) }
        var deadline: Task<Void, Never>?
        var linger: Task<Void, Never>?
        defer {
            deadline?.cancel()
            linger?.cancel()
        }
        if script == nil { Self.readLines(into: continuation) }
        try await engine.begin()
        printError("chat: looking for \(partnerName.map { "the chat device \"\($0)\"" } ?? "a chat partner") on \(hci)"
                   + (script == nil ? "; type a line to send it, end the input to leave." : "; giving up after \(timeout.formatted(decimals: 0)) s.")
                   + (PeerQuery.ownWorldHint(hci: hci).isEmpty ? "" : " Note:" + PeerQuery.ownWorldHint(hci: hci)))
        // Timers, not polling: the run is re-checked at each engine event, at the overall
        // timeout, and at the end of the linger once it has settled. The time runs from the
        // moment the engine's controller is open, on the engine's clock.
        let clock = engine.clock
        let started = clock.microseconds
        let timeoutMicroseconds = Int64((timeout * 1e6).rounded())
        deadline = Task {
            try? await clock.sleep(untilMicroseconds: started + timeoutMicroseconds)
            continuation.yield(.tick)
        }
        if let script {
            for index in 0 ..< script.count { try? engine.send(script.message(index)) }
            // Checked once now, not only at the first event: with nothing to send or wait
            // for (--send-count 0), the run is done without a partner.
            continuation.yield(.tick)
        }
        var settledSince: Int64?
        var inputEnded = false
        var inputEndedAt: Int64?
        for await input in inputs {
            switch input {
            case let .engine(event): show(event)
            case let .line(text): try? engine.send(Data(text.utf8))
            case .inputClosed: inputEnded = true
            case .tick: break
            }
            guard script != nil else {
                // Interactive: at the end of input, leave once what was typed arrived, or at
                // once when no partner was found to deliver it to.
                if inputEnded, engine.isSettled {
                    await engine.end()
                    return
                }
                guard inputEnded else { continue }
                let waiting = engine.session.unacknowledgedCount
                // An embedded world is this process's own: no partner can come any more.
                if engine.partner == nil, !PeerQuery.ownWorldHint(hci: hci).isEmpty {
                    await engine.end()
                    guard waiting > 0 else { return }
                    throw CommandFailure("The input ended and no chat partner was found; \(waiting) message(s) typed were not delivered."
                                         + PeerQuery.ownWorldHint(hci: hci))
                }
                // What was typed has --timeout seconds from the end of input to arrive.
                let endedAt = inputEndedAt ?? clock.microseconds
                if inputEndedAt == nil {
                    inputEndedAt = endedAt
                    deadline?.cancel()
                    deadline = Task {
                        try? await clock.sleep(untilMicroseconds: endedAt + timeoutMicroseconds)
                        continuation.yield(.tick)
                    }
                }
                if clock.microseconds - endedAt >= timeoutMicroseconds {
                    await engine.end()
                    throw CommandFailure("Gave up \(timeout.formatted(decimals: 0)) s after the input ended: \(waiting) message(s) typed "
                                         + "were not delivered; is the partner running?")
                }
                continue
            }
            let elapsed = clock.microseconds - started
            if elapsed >= timeoutMicroseconds {
                await engine.end()
                throw CommandFailure("Gave up after \(timeout) s: received \(received) of \(receiveCount) messages, "
                                     + "\(engine.session.unacknowledgedCount) of ours unacknowledged; is the partner running?")
            }
            if received >= receiveCount, engine.isSettled {
                // Done; linger two heartbeats so that our last acknowledgement reaches the
                // partner before the link goes.
                let lingerFor = (engine.session.configuration.heartbeatInterval * 2).wholeMicroseconds
                let since = settledSince ?? clock.microseconds
                if settledSince == nil {
                    settledSince = since
                    linger = Task {
                        try? await clock.sleep(untilMicroseconds: since + lingerFor)
                        continuation.yield(.tick)
                    }
                }
                if clock.microseconds - since >= lingerFor {
                    await finish(seconds: Double(elapsed) / 1e6)
                    return
                }
            } else {
                settledSince = nil
                linger?.cancel()
                linger = nil
            }
        }
    }

    /// Reports the run's figures, `seconds` on the engine's clock since it began, and ends it.
    private func finish(seconds: Double) async {
        emit(#"{"event": "done", "sent": \#(script?.count ?? 0), "received": \#(received), "links": \#(engine.linksEstablished), "#
            + #""duplicateFragments": \#(engine.session.duplicateFragments), "#
            + #""notificationsDeferred": \#(engine.notificationsDeferred), "seconds": \#((seconds * 1000).rounded() / 1000)}"#)
        await engine.end()
    }

    private func show(_ event: ChatEvent) {
        let scripted = script != nil
        switch event {
        case let .discovered(name, device):
            names[device] = name
            emit(scripted ? #"{"event": "discovered", "name": \#(quote(name)), "device": "\#(device)"}"#
                 : "* \(name) (\(device)) is here")
        case let .role(role):
            let (name, partner): (String, ChatDeviceID) = switch role {
            case let .central(device): ("central", device)
            case let .peripheral(device): ("peripheral", device)
            }
            emit(scripted ? #"{"event": "role", "role": "\#(name)", "partner": \#(quote("\(partner)"))}"#
                 : "* session: \(name), partner \(names[partner].map { "\($0) (\(partner))" } ?? "\(partner)")")
        case let .linkUp(central):
            emit(scripted ? #"{"event": "link", "up": true, "central": \#(central)}"# : "* connected")
        case let .linkDown(reason):
            emit(scripted ? #"{"event": "link", "up": false, "reason": \#(quote(reason))}"# : "* link lost (\(reason)); reconnecting")
        case let .message(message):
            let index = received
            received += 1
            if scripted {
                emit(#"{"event": "received", "index": \#(index), "size": \#(message.count), "digest": "\#(ChatScript.digest(message))"}"#)
            } else {
                let from = engine.partner.flatMap { names[$0] } ?? "partner"
                emit("\(from): \(String(decoding: message, as: UTF8.self))")
            }
        case .acknowledged:
            break
        case let .note(text):
            FileHandle.standardError.write(Data(("chat: " + text + "\n").utf8))
        }
    }

    /// One line on stdout at once (not through stdio's buffer), so a reading test sees it.
    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func quote(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case _ where scalar.value < 0x20: quoted += String(format: "\\u%04x", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// Reads stdin on a thread of its own (a blocking read), line by line.
    private nonisolated static func readLines(into continuation: AsyncStream<Input>.Continuation) {
        let thread = Thread {
            while let line = readLine() { continuation.yield(.line(line)) }
            continuation.yield(.inputClosed)
        }
        thread.start()
    }
}
