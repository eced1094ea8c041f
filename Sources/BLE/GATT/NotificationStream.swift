import BLEHost
import Synchronization

/// The values a peer notifies or indicates for one characteristic, in order, as an
/// `AsyncSequence` (Core 5.4, Vol 3, Part G, §4.10–§4.11): made by
/// ``Connection/notifications(for:)``. Leaving the loop unsubscribes (the Client
/// Characteristic Configuration is written back to zero); the sequence ends when the
/// link goes down. Nothing is dropped: values wait until read.
public struct GATTNotifications: AsyncSequence, Sendable {
    /// One value.
    public typealias Element = [UInt8]

    let stream: AsyncStream<[UInt8]>
    let subscription: GATTSubscriptionToken

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<[UInt8]>.Iterator
        let subscription: GATTSubscriptionToken

        /// The next value, or `nil` when the subscription or the link ended.
        public mutating func next() async -> [UInt8]? { await base.next() }
    }

    /// Starts reading values.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), subscription: subscription)
    }

    /// Unsubscribes now, without waiting for the loop to end.
    public func cancel() { subscription.end() }
}

/// Ends a subscription once, whoever asks first (the loop's end or ``GATTNotifications/cancel()``).
final class GATTSubscriptionToken: Sendable {
    private let onEnd: @Sendable () -> Void
    private let ended = Mutex(false)

    init(onEnd: @escaping @Sendable () -> Void) { self.onEnd = onEnd }

    func end() {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        if first { onEnd() }
    }

    deinit { end() }
}
