import BLEWire

/// A transport whose controller lives in the same process: two in-memory packet queues,
/// one each way. The world's runner drives a simulated controller from the
/// ``ControllerEnd`` while the host uses this end like any other ``HCITransport``.
///
/// Closing either end finishes both directions; sends after that throw.
public final class InProcessTransport: HCITransport {
    /// The controller's side: the packets the host sent, and a way to send to the host.
    public final class ControllerEnd: Sendable {
        /// The host's packets (commands, ACL data), in order; finishes when either end
        /// closes.
        public let packets: AsyncStream<H4.Packet>
        private let toHost: AsyncThrowingStream<H4.Packet, any Error>.Continuation
        private let fromHost: AsyncStream<H4.Packet>.Continuation

        fileprivate init(
            packets: AsyncStream<H4.Packet>,
            toHost: AsyncThrowingStream<H4.Packet, any Error>.Continuation,
            fromHost: AsyncStream<H4.Packet>.Continuation
        ) {
            self.packets = packets
            self.toHost = toHost
            self.fromHost = fromHost
        }

        /// Hands one packet (an event, ACL data) to the host; returns false if the
        /// transport is closed and the packet was dropped.
        @discardableResult
        public func send(_ packet: H4.Packet) -> Bool {
            if case .terminated = toHost.yield(packet) { return false }
            return true
        }

        /// Closes the transport from the controller's side: the host's ``packets``
        /// finishes, or throws `error` if one is given (a controller failure).
        public func close(throwing error: TransportError? = nil) {
            if let error {
                toHost.finish(throwing: error)
            } else {
                toHost.finish()
            }
            fromHost.finish()
        }
    }

    /// The packets from the controller.
    public let packets: AsyncThrowingStream<H4.Packet, any Error>
    private let toController: AsyncStream<H4.Packet>.Continuation
    private let fromController: AsyncThrowingStream<H4.Packet, any Error>.Continuation

    private init(
        packets: AsyncThrowingStream<H4.Packet, any Error>,
        toController: AsyncStream<H4.Packet>.Continuation,
        fromController: AsyncThrowingStream<H4.Packet, any Error>.Continuation
    ) {
        self.packets = packets
        self.toController = toController
        self.fromController = fromController
    }

    /// A connected pair: `host` is the transport for the host stack, `controller` the
    /// end a controller driver reads commands from and sends events to.
    public static func makePair() -> (host: InProcessTransport, controller: ControllerEnd) {
        let (hostPackets, toHost) = AsyncThrowingStream.makeStream(of: H4.Packet.self, throwing: (any Error).self)
        let (controllerPackets, toController) = AsyncStream.makeStream(of: H4.Packet.self)
        let host = InProcessTransport(packets: hostPackets, toController: toController, fromController: toHost)
        let controller = ControllerEnd(packets: controllerPackets, toHost: toHost, fromHost: toController)
        return (host, controller)
    }

    /// Hands one packet to the controller; throws if the transport is closed.
    public func send(_ packet: H4.Packet) async throws(TransportError) {
        if case .terminated = toController.yield(packet) {
            throw TransportError("the in-process controller is closed")
        }
    }

    /// Finishes both directions.
    public func close() async {
        toController.finish()
        fromController.finish()
    }
}
