import BLEHost
import BLETransport
import BLEWire

/// Our ``Host``'s pipe to a Bumble controller: a ``StreamTransport`` (H4 over TCP) seen as
/// a ``HostTransport`` (the test target does not depend on BLEAdapter), with a way to slip
/// packets into the controller-to-host direction, as a controller with a bug would send them.
///
/// Packets from the controller and injected ones go through one stream, so a packet
/// injected before the controller's next packet reaches the host before it.
final class InteropTransport: HostTransport {
    private let base: StreamTransport
    private let input: AsyncThrowingStream<H4.Packet, any Error>.Continuation
    private let forwarding: Task<Void, Never>
    let packets: AsyncThrowingStream<H4.Packet, any Error>

    /// Connects to a controller served on 127.0.0.1:`port`.
    init(port: Int) async throws {
        base = try await StreamTransport.connect(tcpHost: "127.0.0.1", port: UInt16(port))
        let (packets, input) = AsyncThrowingStream.makeStream(of: H4.Packet.self, bufferingPolicy: .unbounded)
        self.packets = packets
        self.input = input
        let base = base
        forwarding = Task {
            do {
                for try await packet in base.packets { input.yield(packet) }
                input.finish()
            } catch {
                input.finish(throwing: error)
            }
        }
    }

    func send(_ packet: H4.Packet) async throws {
        try await base.send(packet)
    }

    /// Hands `packet` to the host as if the controller had sent it.
    func inject(_ packet: H4.Packet) {
        input.yield(packet)
    }

    func close() async {
        forwarding.cancel()
        await base.close()
        input.finish()
    }
}
