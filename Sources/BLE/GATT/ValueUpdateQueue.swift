import BLEHost
import Synchronization

/// The transmit queue behind ``Peripheral/updateValue(_:for:on:)``: Core Bluetooth's
/// non-suspending notify (`CBPeripheralManager.updateValue(_:for:onSubscribedCentrals:)`).
///
/// A value taken goes to the back of one queue; a single task sends the queue in order
/// through ``Peripheral/notify(_:to:on:)``, which waits for the controller's buffers
/// (the host's queued ACL fragments, Core 5.4, Vol 4, Part E, §4.1.1), so the queue
/// fills when the air is slower than the app. While it holds ``capacity`` values a new one
/// is refused (`false`); once a value leaves after a refusal, ``Peripheral/readyToUpdate``
/// yields once. Nothing taken is dropped and the order is kept — only a link that goes
/// down loses what was still queued for it.
final class ValueUpdateQueue: Sendable {
    /// How many values may wait: a few PDUs' worth, like the host's ACL queue.
    static let capacity = 8

    struct Item: Sendable {
        var value: [UInt8]
        var characteristic: LocalCharacteristic
        var connections: [UInt16]?
    }

    private struct State {
        var pending: [Item] = []
        var head = 0
        var sending = false
        var owesReady = false
        var closed = false

        var count: Int { pending.count - head }

        mutating func pop() -> Item? {
            guard head < pending.count else { return nil }
            let item = pending[head]
            head += 1
            if head > 64, head * 2 > pending.count {
                pending.removeFirst(head)
                head = 0
            }
            return item
        }
    }

    private let state = Mutex(State())
    private let readyContinuation: AsyncStream<Void>.Continuation
    /// Yields once after each refusal, when a value has left the queue.
    let ready: AsyncStream<Void>
    private let send: @Sendable (Item) async -> Void

    /// A queue whose values go out through `send`, one at a time.
    init(send: @escaping @Sendable (Item) async -> Void) {
        (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.send = send
    }

    /// Takes `item`, or refuses it (`false`) while the queue is full or closed.
    func offer(_ item: Item) -> Bool {
        let startSender = state.withLock { state -> Bool? in
            guard !state.closed else { return nil }
            guard state.count < Self.capacity else {
                state.owesReady = true
                return nil
            }
            state.pending.append(item)
            guard !state.sending else { return false }
            state.sending = true
            return true
        }
        guard let startSender else { return false }
        if startSender { Task { await self.drain() } }
        return true
    }

    /// How many values wait.
    var count: Int { state.withLock { $0.count } }

    /// Sends until the queue is empty.
    private func drain() async {
        while true {
            let item = state.withLock { state -> Item? in
                guard let item = state.pop() else {
                    state.sending = false
                    return nil
                }
                return item
            }
            guard let item else { return }
            await send(item)
            let signal = state.withLock { state -> Bool in
                guard state.owesReady, state.count < Self.capacity else { return false }
                state.owesReady = false
                return true
            }
            if signal { readyContinuation.yield() }
        }
    }

    /// Refuses everything from now on and ends ``ready``.
    func close() {
        state.withLock { $0.closed = true }
        readyContinuation.finish()
    }
}
