import BLETransport
import BLEWire
import Glibc
import Testing

@Suite("H4 over stream sockets", .timeLimit(.minutes(1)))
struct StreamTransportTests {
    /// Sends `count` random packets and expects the echo peer to return them intact.
    private func expectEcho(through transport: StreamTransport, count: Int, seed: UInt64) async throws {
        var random = TransportTestRandom(seed: seed)
        let sent = (0 ..< count).map { _ in random.packet() }
        async let received = collect(transport.packets, count: sent.count)
        for packet in sent { try await transport.send(packet) }
        let echoed = try await received
        #expect(echoed.count == sent.count)
        #expect(echoed == sent)
    }

    @Test("TCP: packets echoed in random chunks come back whole and in order")
    func tcpEcho() async throws {
        let listener = try TCPListener()
        defer { close(listener.descriptor) }
        async let echoed = onPeerThread { echoInRandomChunks(listener.accept(), seed: 1) }
        let transport = try await StreamTransport.connect(tcpHost: "127.0.0.1", port: listener.port)
        #expect(transport.label == "tcp:127.0.0.1:\(listener.port)")
        try await expectEcho(through: transport, count: 300, seed: 2)
        await transport.close()
        #expect(await echoed > 300)
    }

    @Test("TCP: a host name resolves")
    func tcpByName() async throws {
        let listener = try TCPListener()
        defer { close(listener.descriptor) }
        async let echoed = onPeerThread { echoInRandomChunks(listener.accept(), seed: 3) }
        let transport = try await StreamTransport.connect(tcpHost: "localhost", port: listener.port)
        try await expectEcho(through: transport, count: 20, seed: 4)
        await transport.close()
        _ = await echoed
    }

    @Test("Unix: packets echoed in random chunks come back whole and in order")
    func unixEcho() async throws {
        let listener = try UnixListener()
        defer { listener.remove() }
        async let echoed = onPeerThread { echoInRandomChunks(listener.accept(), seed: 5) }
        let transport = try await StreamTransport.connect(unixPath: listener.path)
        #expect(transport.label == "unix:\(listener.path)")
        try await expectEcho(through: transport, count: 300, seed: 6)
        await transport.close()
        #expect(await echoed > 300)
    }

    @Test("Large ACL packets (64 KiB) cross a stream intact")
    func largePackets() async throws {
        let listener = try UnixListener()
        defer { listener.remove() }
        async let echoed = onPeerThread { echoInRandomChunks(listener.accept(), seed: 7) }
        let transport = try await StreamTransport.connect(unixPath: listener.path)
        var random = TransportTestRandom(seed: 8)
        let sent = (0 ..< 4).map { index in
            H4.Packet.acl(HCI.ACLPacket(connectionHandle: 0x0040, packetBoundary: .firstAutomaticallyFlushable, data: random.bytes(65_535 - index)[...]))
        }
        async let received = collect(transport.packets, count: sent.count)
        for packet in sent { try await transport.send(packet) }
        #expect(try await received == sent)
        await transport.close()
        _ = await echoed
    }

    @Test("Closing the transport finishes packets, and later sends fail")
    func closeFinishes() async throws {
        let listener = try TCPListener()
        defer { close(listener.descriptor) }
        async let echoed = onPeerThread { echoInRandomChunks(listener.accept(), seed: 9) }
        let transport = try await StreamTransport.connect(tcpHost: "127.0.0.1", port: listener.port)
        let label = transport.label
        let reader = Task { try await collect(transport.packets, count: .max) }
        await transport.close()
        #expect(try await reader.value.isEmpty)
        await #expect(throws: TransportError("\(label) is closed")) {
            try await transport.send(.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03))))
        }
        await transport.close()  // a second close is harmless
        #expect(await echoed == 0)
    }

    @Test("The controller closing the connection finishes packets after what it sent")
    func peerCloses() async throws {
        let listener = try TCPListener()
        defer { close(listener.descriptor) }
        // Command Complete for HCI_Reset, then end of stream.
        let event: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        async let wrote = onPeerThread {
            let peer = listener.accept()
            defer { close(peer) }
            return writeAll(peer, event)
        }
        let transport = try await StreamTransport.connect(tcpHost: "127.0.0.1", port: listener.port)
        #expect(await wrote)
        let received = try await collect(transport.packets, count: .max)
        #expect(received.map { $0.encoded() } == [event])
    }

    @Test("Octets that are not H4 make packets throw")
    func framingErrorThrows() async throws {
        let listener = try TCPListener()
        defer { close(listener.descriptor) }
        async let wrote = onPeerThread {
            let peer = listener.accept()
            defer { close(peer) }
            return writeAll(peer, [0x04, 0x0E, 0x01, 0x01, 0xFF, 0x00])
        }
        let transport = try await StreamTransport.connect(tcpHost: "127.0.0.1", port: listener.port)
        #expect(await wrote)
        var received: [H4.Packet] = []
        await #expect(throws: TransportError.self) {
            for try await packet in transport.packets { received.append(packet) }
        }
        #expect(received == [.event(HCI.EventPacket(eventCode: HCI.EventCode(rawValue: 0x0E), parameters: [0x01]))])
    }

    @Test("Connecting to a closed TCP port says so and asks whether the controller runs")
    func tcpRefused() async throws {
        let listener = try TCPListener()
        let port = listener.port
        close(listener.descriptor)
        let error = await #expect(throws: TransportError.self) {
            _ = try await StreamTransport.connect(tcpHost: "127.0.0.1", port: port)
        }
        #expect(error?.message == "could not connect to tcp:127.0.0.1:\(port): connection refused — is the controller running?")
        #expect(error?.errno == ECONNREFUSED)
    }

    @Test("Connecting to a missing Unix socket says so")
    func unixMissing() async {
        let error = await #expect(throws: TransportError.self) {
            _ = try await StreamTransport.connect(unixPath: "/tmp/swiftble-no-such-socket")
        }
        #expect(error?.message == "could not connect to unix:/tmp/swiftble-no-such-socket: no such socket — is the controller running?")
    }

    @Test("An unknown host name is reported as such")
    func unknownHost() async {
        let error = await #expect(throws: TransportError.self) {
            _ = try await StreamTransport.connect(tcpHost: "no-such-host.invalid", port: 9100)
        }
        #expect(error?.message.hasPrefix("could not resolve no-such-host.invalid for tcp:no-such-host.invalid:9100: ") == true)
    }

    @Test("A spec opens a stream transport")
    func specOpens() async throws {
        let listener = try TCPListener()
        defer { close(listener.descriptor) }
        async let echoed = onPeerThread { echoInRandomChunks(listener.accept(), seed: 10) }
        let transport = try await HCITransportSpec(parsing: "tcp:127.0.0.1:\(listener.port)").open()
        let packet = H4.Packet.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03)))
        try await transport.send(packet)
        #expect(try await collect(transport.packets, count: 1) == [packet])
        await transport.close()
        _ = await echoed
    }
}
