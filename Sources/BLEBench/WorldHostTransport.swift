import BLEHost
import BLEWire
import BLEWorld

/// A ``HostTransport`` straight into one device of a world: what the host sends is handed
/// to the device's controller through the runner, what the controller sends comes out of
/// ``packets``. No sockets, no copies beyond the packets themselves.
struct WorldHostTransport: HostTransport {
    let runner: any WorldDriver
    let device: DeviceID
    /// The world's packets for the host, one at a time (when there is no inbox).
    let packets: AsyncThrowingStream<H4.Packet, any Error>
    /// The world's packets for the host, taken in batches (``HostPacketInbox``): only on
    /// the airtime-free link, where nothing waits for a connection event.
    let packetInbox: HostPacketInbox?

    var inbox: HostPacketInbox? { packetInbox }

    /// Ends the host's inbox.
    func close() async {
        packetInbox?.finish()
    }

    func send(_ packet: H4.Packet) async throws {
        runner.submit(packet, to: device)
    }

    /// A world that takes packets on the caller's turn (``DirectLinkRunner``) saves the
    /// host's writer task a hop per packet.
    func sendImmediately(_ packet: H4.Packet) -> Bool {
        guard runner.acceptsImmediately else { return false }
        runner.submit(packet, to: device)
        return true
    }
}
