import BLEWire
import Glibc

/// H4 over a connected stream socket (Core 5.4, Vol 4, Part A, §2: the UART transport's
/// framing, carried over TCP or a Unix socket): how `ble sim serve`, Bumble and RootCanal
/// expose a controller. Packets are found by their header lengths, so the peer may split
/// or merge them freely.
///
/// End of stream finishes ``packets``; octets that are not H4 make it throw, since H4 has
/// no way to find the next packet boundary after a bad one.
public final class StreamTransport: HCITransport {
    /// How long ``connect(tcpHost:port:timeout:)`` waits for an answer by default.
    public static let defaultConnectTimeout: Duration = .seconds(10)

    /// The transport as the user names it, e.g. `tcp:127.0.0.1:9100` or `unix:/tmp/hci`.
    public let label: String
    private let channel: H4DescriptorChannel

    /// Runs H4 over `descriptor`, an already connected stream socket, which the transport
    /// now owns (it is closed if this throws). `label` names it in error sentences.
    public init(adoptingDescriptor descriptor: Int32, label: String) throws(TransportError) {
        self.label = label
        channel = try H4DescriptorChannel(
            descriptor: descriptor,
            options: .init(label: label, framing: .byteStream, isSocket: true)
        )
    }

    deinit {
        channel.requestClose()
    }

    /// Connects to an H4 controller at `tcpHost:port` (a name or an IPv4/IPv6 address;
    /// every address the name resolves to is tried in turn) with `TCP_NODELAY`, since
    /// HCI packets are small and latency-sensitive.
    public static func connect(
        tcpHost host: String,
        port: UInt16,
        timeout: Duration = defaultConnectTimeout
    ) async throws(TransportError) -> StreamTransport {
        let label = HCITransportSpec.tcp(host: host, port: port).description
        let descriptor = try await IOThread.run(name: "ble-connect") {
            SocketConnector.connectTCP(host: host, port: port, label: label, timeout: timeout)
        }
        return try StreamTransport(adoptingDescriptor: descriptor, label: label)
    }

    /// Connects to an H4 controller listening on the Unix stream socket at `unixPath`.
    public static func connect(unixPath path: String) async throws(TransportError) -> StreamTransport {
        let label = HCITransportSpec.unix(path: path).description
        let descriptor = try await IOThread.run(name: "ble-connect") {
            SocketConnector.connectUnix(path: path, label: label)
        }
        return try StreamTransport(adoptingDescriptor: descriptor, label: label)
    }

    /// Writes one packet after all earlier ones.
    public func send(_ packet: H4.Packet) async throws(TransportError) {
        try await channel.send(packet)
    }

    /// The packets from the controller.
    public var packets: AsyncThrowingStream<H4.Packet, any Error> { channel.packets }

    /// Closes the socket; ``packets`` has finished when this returns.
    public func close() async {
        await channel.close()
    }
}
