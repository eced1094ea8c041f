import BLEHost

/// A published PSM of a ``Peripheral``: the channels peers open to it, as an
/// `AsyncSequence` (see ``Peripheral/publishL2CAPChannel(psm:options:)``).
///
/// Channels wait in the listener until taken, so none is missed; with several loops each
/// channel goes to one of them. Iteration ends at ``unpublish()`` or when the device closes.
public final class L2CAPListener: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = L2CAPChannel
    /// Iteration never throws: it ends instead.
    public typealias Failure = Never

    /// The SPSM published.
    public let psm: UInt16
    private let peripheral: Peripheral
    private let accepted = Mailbox<L2CAPChannel>()

    init(psm: UInt16, peripheral: Peripheral, channels: AsyncStream<HostChannel>, core: DeviceCore, dispatcher: EventDispatcher) {
        self.psm = psm
        self.peripheral = peripheral
        let accepted = self.accepted
        // The one reader of the host's stream for this PSM; it ends when the host stops
        // listening or closes.
        Task {
            for await channel in channels {
                guard let connection = await dispatcher.connection(handle: channel.id.handle) else {
                    await core.host.closeChannel(channel.id)
                    continue
                }
                if !accepted.put(L2CAPChannel(channel, connection: connection)) { await core.host.closeChannel(channel.id) }
            }
            accepted.finish()
        }
    }

    /// An iterator taking channels as peers open them.
    public func makeAsyncIterator() -> Iterator { Iterator(accepted: accepted) }

    /// Stops accepting channels; open channels stay open.
    public func unpublish() async {
        await peripheral.unpublish(self)
    }

    /// Takes one channel per step.
    public struct Iterator: AsyncIteratorProtocol {
        let accepted: Mailbox<L2CAPChannel>

        /// The next channel; `nil` once unpublished or closed, or the task was cancelled.
        public mutating func next() async -> L2CAPChannel? { await accepted.next() }
    }
}
