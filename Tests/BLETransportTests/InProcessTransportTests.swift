import BLETransport
import BLEWire
import Testing

@Suite("In-process transport")
struct InProcessTransportTests {
    @Test("Packets cross both ways in order")
    func bothWays() async throws {
        let (host, controller) = InProcessTransport.makePair()
        var random = TransportTestRandom(seed: 11)
        let commands = (0 ..< 50).map { _ in random.packet() }
        let events = (0 ..< 50).map { _ in random.packet() }
        for command in commands { try await host.send(command) }
        for event in events { #expect(controller.send(event)) }
        var fromHost: [H4.Packet] = []
        for await packet in controller.packets {
            fromHost.append(packet)
            if fromHost.count == commands.count { break }
        }
        #expect(fromHost == commands)
        #expect(try await collect(host.packets, count: events.count) == events)
    }

    @Test("Closing the host end finishes both directions and later sends fail")
    func hostCloses() async throws {
        let (host, controller) = InProcessTransport.makePair()
        let reset = H4.Packet.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03)))
        try await host.send(reset)
        await host.close()
        var fromHost: [H4.Packet] = []
        for await packet in controller.packets { fromHost.append(packet) }
        #expect(fromHost == [reset])
        #expect(try await collect(host.packets, count: 10).isEmpty)
        #expect(!controller.send(reset))
        await #expect(throws: TransportError("the in-process controller is closed")) { try await host.send(reset) }
    }

    @Test("A controller that fails makes the host's packets throw its error")
    func controllerFails() async throws {
        let (host, controller) = InProcessTransport.makePair()
        let event = H4.Packet.event(HCI.EventPacket(eventCode: HCI.EventCode(rawValue: 0x0E), parameters: [1, 0x03, 0x0C, 0x00]))
        controller.send(event)
        controller.close(throwing: TransportError("the controller crashed"))
        var received: [H4.Packet] = []
        await #expect(throws: TransportError("the controller crashed")) {
            for try await packet in host.packets { received.append(packet) }
        }
        #expect(received == [event])
    }
}
