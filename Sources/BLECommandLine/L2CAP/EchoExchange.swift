import BLEHost
import Synchronization

/// What one echo exchange achieved, and why it failed if it did.
struct EchoSummary {
    /// Echoes received, identical or not.
    var echoed: Int
    /// Octets received back.
    var octets: Int
    /// Seconds from the first send to the last echo, on the host's clock.
    var seconds: Double
    /// Echoes that differed from what was sent.
    var mismatches: Int
    /// One sentence when the exchange failed, `nil` when every echo came back intact.
    var failure: String?

    /// The summary as a sentence or a JSON object.
    var line: OutputLine {
        let bytesPerSecond = seconds > 0 ? Double(octets) / seconds : 0
        let sdusPerSecond = seconds > 0 ? Double(echoed) / seconds : 0
        var text = "Checked \(echoed) echoes, \(octets) bytes each way in \(seconds.formatted(decimals: 3)) s: "
            + "\((bytesPerSecond / 1000).formatted(decimals: 1)) kB/s, \(sdusPerSecond.formatted(decimals: 1)) SDUs/s"
        if mismatches > 0 { text += ", \(mismatches) differed" }
        return OutputLine(text: text, fields: [
            ("event", .string("summary")), ("sdus", .integer(echoed)), ("bytes", .integer(octets)), ("seconds", .number(seconds)),
            ("bytesPerSecond", .number(bytesPerSecond)), ("sdusPerSecond", .number(sdusPerSecond)),
            ("mismatches", .integer(mismatches)), ("ok", .bool(failure == nil)),
        ])
    }
}

/// Sends `count` SDUs of `pattern` on an open channel while reading the echoes, so the
/// channel stays full both ways, and checks each echo against what was sent.
struct EchoExchange {
    let host: BLEHost.Host
    let channel: HostChannel
    let pattern: SDUPattern
    let count: Int
    /// Longest wait for the next echo before the link is dropped as stalled.
    let idleTimeout: Double

    /// Echoes seen so far, and whether the watchdog gave up; shared with its task.
    private final class Progress: Sendable {
        let state = Mutex<(echoes: Int, stalled: Bool)>((0, false))
    }

    /// Runs the exchange to its end: every echo back, the channel closed, or a stall. The
    /// time it reports and the watchdog's timer are on the host's clock.
    func run() async -> EchoSummary {
        let clock = host.clock
        let start = clock.microseconds
        let host = self.host, id = channel.id, pattern = self.pattern, count = self.count
        let sender = Task {
            for index in 0 ..< count { try await host.send(pattern.sdu(index), on: id) }
        }
        let progress = Progress()
        let timeout = idleTimeout
        let watchdog = Task {
            var seen = -1
            while true {
                // A timer, not a wait for something to happen: every `timeout` seconds it
                // checks that an echo arrived since its last look, and drops the link if not.
                do { try await clock.sleep(seconds: timeout) } catch { return }
                let echoes = progress.state.withLock { $0.echoes }
                if echoes == seen {
                    progress.state.withLock { $0.stalled = true }
                    try? await host.disconnect(id.handle)
                    return
                }
                seen = echoes
            }
        }
        var summary = EchoSummary(echoed: 0, octets: 0, seconds: 0, mismatches: 0)
        var firstMismatch: String?
        while summary.echoed < count {
            let sdu: [UInt8]?
            do { sdu = try await host.receive(on: id) } catch { sdu = nil }
            guard let sdu else { break }
            if let difference = pattern.mismatch(sdu, index: summary.echoed) {
                summary.mismatches += 1
                firstMismatch = firstMismatch ?? difference
            }
            summary.echoed += 1
            summary.octets += sdu.count
            progress.state.withLock { $0.echoes += 1 }
        }
        summary.seconds = clock.seconds(since: start)
        watchdog.cancel()
        let sendError: (any Error)?
        do {
            try await sender.value
            sendError = nil
        } catch {
            sendError = error
        }
        if progress.state.withLock({ $0.stalled }) {
            summary.failure = "No echo arrived for \(timeout.formatted(decimals: 1)) s after \(summary.echoed) of \(count) SDUs; "
                + "check that the server echoes (ble l2cap listen does) and is still connected."
        } else if summary.echoed < count {
            summary.failure = "The channel closed after \(summary.echoed) of \(count) echoes"
                + (sendError.map { " (\($0))" } ?? "") + "; check the server's log for why."
        } else if let firstMismatch {
            summary.failure = "\(summary.mismatches) of \(count) echoes differed from what was sent; the first: \(firstMismatch)."
        }
        return summary
    }
}
