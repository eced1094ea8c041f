import BLE
import Foundation
import Synchronization

/// What the app wrote to a channel and the channel has not sent yet, behind
/// ``L2CAPOutputStream``: each write becomes one SDU of at most the peer's MTU (Core 5.4,
/// Vol 3, Part A, §3.4.3), sent in order by a task the peer's credits pace.
///
/// `hasSpaceAvailable` is posted on open, after a write that leaves room, and when the
/// channel drains a full outbox below ``capacity``; `errorOccurred` when an SDU cannot be
/// sent; `endEncountered` when the channel closes. A write is never refused for lack of room
/// and never blocks: `hasSpaceAvailable` turns false while ``capacity`` bytes wait, which is
/// what well-behaved writers follow.
final class L2CAPOutbox: Sendable {
    /// The bytes waiting to be sent beyond which `hasSpaceAvailable` is false.
    static let capacity = 16_384

    private struct State {
        var status: Stream.Status = .notOpen
        var waiting = 0
        /// Whether a write found the outbox full, so room is announced when it drains.
        var spaceWanted = false
        var failure: (any Error)?
    }

    private let state = Mutex(State())
    private let sdus: AsyncStream<[UInt8]>.Continuation
    private let peerMTU: Int
    /// The stream's event poster.
    let events: StreamEventPoster

    init(channel: L2CAPChannel, events: StreamEventPoster) {
        let (stream, sdus) = AsyncStream<[UInt8]>.makeStream()
        self.sdus = sdus
        self.events = events
        peerMTU = max(1, channel.peerMTU)
        Task { [weak self] in
            for await sdu in stream {
                do throws(BLEError) {
                    try await channel.send(sdu)
                    self?.sent(sdu.count)
                } catch {
                    self?.failed(error)
                    break
                }
            }
        }
    }

    // MARK: The channel's side

    private func sent(_ count: Int) {
        let room = state.withLock { state -> Bool in
            state.waiting -= count
            guard state.status == .open, state.spaceWanted, state.waiting < Self.capacity else { return false }
            state.spaceWanted = false
            return true
        }
        if room { events.post(.hasSpaceAvailable) }
    }

    private func failed(_ error: BLEError) {
        let post = state.withLock { state -> Bool in
            guard state.status == .open else { return false }
            state.status = .error
            state.failure = CBErrorMapping.error(error)
            return true
        }
        if post { events.post(.errorOccurred) }
    }

    /// The channel is closed: nothing more can be written.
    func finish() {
        let post = state.withLock { state -> Bool in
            guard state.status == .open else { return false }
            state.status = .atEnd
            return true
        }
        if post { events.post(.endEncountered) }
    }

    // MARK: The app's side

    func open() {
        let opened = state.withLock { state -> Bool in
            guard state.status == .notOpen else { return false }
            state.status = .open
            return true
        }
        guard opened else { return }
        events.post(.openCompleted)
        events.post(.hasSpaceAvailable)
    }

    /// Closes the stream; what was written is still sent.
    func close() {
        state.withLock { $0.status = .closed }
        sdus.finish()
        events.close()
    }

    var streamStatus: Stream.Status { state.withLock { $0.status } }

    var streamError: (any Error)? { state.withLock { $0.failure } }

    var hasSpaceAvailable: Bool { state.withLock { $0.status == .open && $0.waiting < Self.capacity } }

    /// Queues up to one peer MTU of `bytes` as an SDU; returns how many, or -1 when not open.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let (count, room) = state.withLock { state -> (Int, Bool) in
            guard state.status == .open else { return (-1, false) }
            let count = min(bytes.count, peerMTU)
            guard count > 0 else { return (0, false) }
            state.waiting += count
            sdus.yield(Array(bytes.prefix(count)))
            state.spaceWanted = state.waiting >= Self.capacity
            return (count, !state.spaceWanted)
        }
        if room { events.post(.hasSpaceAvailable) }
        return count
    }
}
