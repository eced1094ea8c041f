import BLEHost
import Synchronization

/// The values a peer notifies or indicates for one characteristic, in order, as an
/// `AsyncSequence` (Core 5.4, Vol 3, Part G, §4.10–§4.11): made by
/// ``Connection/notifications(for:)``. Leaving the loop unsubscribes (the Client
/// Characteristic Configuration is written back to zero); the sequence ends when the
/// link goes down. Values wait until read, up to ``backlog`` of them; past that the oldest
/// unread value makes room for the newest (``droppedValues`` counts them), so a peer cannot
/// make an app that stopped reading hold without bound what it sends.
public struct GATTNotifications: AsyncSequence, Sendable {
    /// One value.
    public typealias Element = [UInt8]

    /// How many unread values a subscription holds (at most 512 octets each, so about
    /// 512 kB): a minute of a sensor notifying every 60 ms, a few seconds of a peer
    /// notifying as fast as its link allows.
    public static let backlog = 1024

    let stream: AsyncStream<[UInt8]>
    let subscription: GATTSubscriptionToken
    let dropped: GATTDroppedValues

    /// Values that arrived while ``backlog`` values waited unread, and so pushed out the
    /// oldest unread one.
    public var droppedValues: Int { dropped.count }

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

/// Counts the values a subscription's full backlog pushed out (``GATTNotifications/droppedValues``).
final class GATTDroppedValues: Sendable {
    private let counter = Atomic<Int>(0)

    /// Values pushed out so far.
    var count: Int { counter.load(ordering: .relaxed) }

    /// Counts one more; returns the new total.
    func add() -> Int { counter.add(1, ordering: .relaxed).newValue }
}
