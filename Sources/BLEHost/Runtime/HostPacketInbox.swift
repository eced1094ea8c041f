import BLEWire
import Synchronization

/// Packets from the controller handed to a ``Host`` in batches: everything that arrived
/// since the host last looked, in order.
///
/// A transport that delivers packets in-process (a simulated world) offers one as
/// ``HostTransport/inbox``: the host then takes all waiting packets in one turn of its actor,
/// instead of one task switch per packet through ``HostTransport/packets``. A burst of
/// notifications and Number Of Completed Packets events costs one wake-up, not one each.
/// Nothing is dropped: the inbox holds what was appended until the host takes it.
public final class HostPacketInbox: Sendable {
    private struct State {
        var packets: [H4.Packet] = []
        var waiter: UnsafeContinuation<[H4.Packet], Never>?
        var finished = false
        /// Why it finished, when the transport failed.
        var failure: String?
    }

    private let state = Mutex(State())
    /// How many times ``take()`` yields and looks again before it waits for a packet.
    public let pollsBeforeWaiting: Int

    /// An empty, open inbox.
    /// - Parameter pollsBeforeWaiting: how many times an empty inbox's reader yields its
    ///   executor and looks again before it waits (0, the default: it waits at once). A
    ///   waiting reader is woken by the appending thread, which then pays for the wake-up
    ///   (resuming the reader's task and enqueueing it on its executor) for every packet
    ///   that finds it waiting; a reader that looks a little first takes that cost on its
    ///   own thread, which helps when the appending thread is the busier one (the bench's
    ///   airtime-free link, where the sending host's thread runs the world).
    public init(pollsBeforeWaiting: Int = 0) {
        self.pollsBeforeWaiting = max(0, pollsBeforeWaiting)
    }

    /// Adds a packet from the controller; wakes the host if it waits. Ignored once finished.
    public func append(_ packet: H4.Packet) {
        let waiter = state.withLock { state -> UnsafeContinuation<[H4.Packet], Never>? in
            guard !state.finished else { return nil }
            guard let waiter = state.waiter else {
                state.packets.append(packet)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: [packet])
    }

    /// Ends the inbox: the host takes what is left, then learns the transport closed
    /// (`failure` says why when it failed).
    public func finish(failure: String? = nil) {
        let waiter = state.withLock { state -> UnsafeContinuation<[H4.Packet], Never>? in
            guard !state.finished else { return nil }
            state.finished = true
            state.failure = failure
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: [])
    }

    /// Why the inbox finished, if the transport failed.
    public var failure: String? { state.withLock { $0.failure } }

    /// Every packet waiting, waiting for one if there is none; empty once finished (or when
    /// the task is cancelled, which finishes the inbox). The host's side: one reader only.
    public func take() async -> [H4.Packet] {
        for _ in 0 ..< pollsBeforeWaiting {
            let ready = state.withLock { state -> [H4.Packet]? in
                if !state.packets.isEmpty {
                    defer { state.packets = [] }
                    return state.packets
                }
                return state.finished ? [] : nil
            }
            if let ready { return ready }
            if Task.isCancelled { break }
            await Task.yield()
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let ready = state.withLock { state -> [H4.Packet]? in
                    if !state.packets.isEmpty {
                        defer { state.packets = [] }
                        return state.packets
                    }
                    if state.finished { return [] }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }
}
