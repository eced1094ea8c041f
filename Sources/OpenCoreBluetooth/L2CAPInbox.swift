import Foundation
import Synchronization

/// What a channel received and the app has not read yet, behind ``L2CAPInputStream``: the
/// channel's reader task fills it, the app's reads empty it, and it posts the stream's
/// events.
///
/// `hasBytesAvailable` is posted on open when bytes wait, when bytes arrive into an empty
/// inbox, and after a read that leaves bytes; `endEncountered` once the channel is closed
/// and every byte was read.
///
/// At most ``capacity`` bytes (64 KiB unless given) wait here: beyond that the reader stops taking SDUs, so the
/// host stops returning credits and the peer pauses (Core 5.4, Vol 3, Part A, §10.1): a
/// slow app paces the sender rather than filling memory.
final class L2CAPInbox: Sendable {
    /// The bytes held before the reader waits for the app to read.
    let capacity: Int

    private struct State {
        var bytes: [UInt8] = []
        /// Where the unread bytes start in `bytes` (compacted as reads go).
        var start = 0
        var ended = false
        var endPosted = false
        var status: Stream.Status = .notOpen
        var readerWaiting: CheckedContinuation<Void, Never>?

        var buffered: Int { bytes.count - start }

        /// Whether `endEncountered` is due now; marks it posted.
        mutating func endIsDue() -> Bool {
            guard status == .open, ended, buffered == 0, !endPosted else { return false }
            endPosted = true
            return true
        }
    }

    private let state = Mutex(State())
    /// The stream's event poster.
    let events: StreamEventPoster

    init(events: StreamEventPoster, capacity: Int = 65_536) {
        self.events = events
        self.capacity = max(1, capacity)
    }

    // MARK: The channel's side

    /// Takes one SDU from the channel; suspends while ``capacity`` bytes wait to be read.
    func receive(_ sdu: [UInt8]) async {
        let (arrived, full) = state.withLock { state -> (Bool, Bool) in
            guard state.status != .closed else { return (false, false) }
            let wasEmpty = state.buffered == 0
            state.bytes += sdu
            return (wasEmpty && !sdu.isEmpty && state.status == .open, state.buffered >= capacity)
        }
        if arrived { events.post(.hasBytesAvailable) }
        guard full else { return }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                guard state.status != .closed, state.buffered >= capacity else { return true }
                state.readerWaiting = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// The channel is closed: once the bytes held are read, the stream is at its end.
    func finish() {
        let post = state.withLock { state -> Bool in
            state.ended = true
            return state.endIsDue()
        }
        if post { events.post(.endEncountered) }
    }

    // MARK: The app's side

    func open() {
        let opened = state.withLock { state -> (hasBytes: Bool, end: Bool)? in
            guard state.status == .notOpen else { return nil }
            state.status = .open
            return (state.buffered > 0, state.endIsDue())
        }
        guard let opened else { return }
        events.post(.openCompleted)
        if opened.hasBytes { events.post(.hasBytesAvailable) }
        if opened.end { events.post(.endEncountered) }
    }

    func close() {
        let reader = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.status = .closed
            state.bytes = []
            state.start = 0
            defer { state.readerWaiting = nil }
            return state.readerWaiting
        }
        events.close()
        reader?.resume()
    }

    var streamStatus: Stream.Status {
        state.withLock { $0.status == .open && $0.ended && $0.buffered == 0 ? .atEnd : $0.status }
    }

    var hasBytesAvailable: Bool { state.withLock { $0.status == .open && $0.buffered > 0 } }

    /// Copies up to `count` bytes into `buffer`; returns how many, or -1 when not open.
    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let (count, more, end, reader) = state.withLock { state -> (Int, Bool, Bool, CheckedContinuation<Void, Never>?) in
            guard state.status == .open else { return (-1, false, false, nil) }
            let count = min(buffer.count, state.buffered)
            for index in 0 ..< count { buffer[index] = state.bytes[state.start + index] }
            state.start += count
            if state.start > 4096, state.start * 2 > state.bytes.count {
                state.bytes.removeFirst(state.start)
                state.start = 0
            }
            var reader: CheckedContinuation<Void, Never>?
            if state.buffered < capacity {
                reader = state.readerWaiting
                state.readerWaiting = nil
            }
            return (count, count > 0 && state.buffered > 0, state.endIsDue(), reader)
        }
        reader?.resume()
        if more { events.post(.hasBytesAvailable) }
        if end { events.post(.endEncountered) }
        return count
    }
}
