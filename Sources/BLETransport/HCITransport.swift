import BLEWire

/// A byte pipe to an HCI controller that carries whole H4 packets both ways: the one seam
/// between the host and any controller (DESIGN.md, "Layers"). Implementations: in-process to a
/// simulated controller, H4 over TCP or a Unix socket, a serial line, and the Linux HCI user
/// channel.
public protocol HCITransport: Sendable {
    /// Sends one packet to the controller, in order with earlier sends.
    func send(_ packet: H4.Packet) async throws(TransportError)
    /// The packets from the controller, in order; finishes when the transport closes, and
    /// throws a ``TransportError`` if it fails.
    var packets: AsyncThrowingStream<H4.Packet, any Error> { get }
    /// Closes the transport; `packets` finishes.
    func close() async
}
