import BLETransport
import BLEWire
import Glibc
import Testing

@Suite("Stream transport: a peer that closes in the middle of a packet", .timeLimit(.minutes(1)))
struct StreamTransportMidPacketTests {
    @Test("The whole packets before it arrive, then packets throws a sentence saying how much of the next had come")
    func closedMidPacket() async throws {
        let listener = try TCPListener()
        defer { close(listener.descriptor) }
        // Command Complete for HCI_Reset, then the first 3 octets of another event.
        let whole: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        async let wrote = onPeerThread {
            let peer = listener.accept()
            defer { close(peer) }
            return writeAll(peer, whole + [0x04, 0x0E, 0x04])
        }
        let transport = try await StreamTransport.connect(tcpHost: "127.0.0.1", port: listener.port)
        #expect(await wrote)
        var received: [H4.Packet] = []
        let error = await #expect(throws: TransportError.self) {
            for try await packet in transport.packets { received.append(packet) }
        }
        #expect(received.map { $0.encoded() } == [whole])
        #expect(error?.message == "tcp:127.0.0.1:\(listener.port) closed the connection in the middle of a packet (3 octets of it had arrived)")
    }
}
