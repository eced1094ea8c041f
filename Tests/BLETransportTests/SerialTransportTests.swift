import BLETransport
import BLEWire
import Glibc
import Testing

@Suite("H4 over a serial line (pseudo-terminal)", .timeLimit(.minutes(1)))
struct SerialTransportTests {
    @Test("Packets echoed through a raw pseudo-terminal come back unchanged")
    func echoThroughPseudoTerminal() async throws {
        let terminal = try PseudoTerminal()
        let transport = try SerialTransport.open(device: terminal.slavePath, baudRate: 1_000_000)
        #expect(transport.label == "serial:\(terminal.slavePath)@1000000")
        // Only a raw line passes every octet (0x03, 0x0D, 0x11, 0x13, 0x7F, ...) unchanged
        // and without echoing it back.
        let master = terminal.master
        async let echoed = onPeerThread { echoInRandomChunks(master, seed: 21) }
        var random = TransportTestRandom(seed: 22)
        var sent = (0 ..< 200).map { _ in random.packet(maximumPayload: 200) }
        sent.append(.acl(HCI.ACLPacket(connectionHandle: 1, packetBoundary: .complete, data: Array(0 ... 255)[...])))
        async let received = collect(transport.packets, count: sent.count)
        for packet in sent { try await transport.send(packet) }
        #expect(try await received == sent)
        await transport.close()
        // The master sees a hang-up once the transport closes the slave.
        #expect(await echoed > 200)
    }

    @Test("Closing the other end of the line finishes packets")
    func hangUpFinishes() async throws {
        let terminal = try PseudoTerminal()
        let transport = try SerialTransport.open(device: terminal.slavePath)
        let event: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        #expect(writeAll(terminal.master, event))
        var iterator = transport.packets.makeAsyncIterator()
        #expect(try await iterator.next()?.encoded() == event)
        close(terminal.master)
        #expect(try await iterator.next() == nil)
    }

    @Test("A speed Linux cannot set is refused with the list of speeds")
    func unsupportedSpeed() throws {
        let terminal = try PseudoTerminal()
        defer { close(terminal.master) }
        let error = #expect(throws: TransportError.self) { _ = try SerialTransport.open(device: terminal.slavePath, baudRate: 12_345) }
        #expect(error?.message.hasPrefix("serial:\(terminal.slavePath)@12345: 12345 baud is not a speed Linux can set; use one of 1200, 2400") == true)
    }

    @Test("A missing device says to plug the adapter in")
    func missingDevice() {
        let error = #expect(throws: TransportError.self) { _ = try SerialTransport.open(device: "/dev/ttySwiftBLEMissing") }
        #expect(error?.message == "could not open serial:/dev/ttySwiftBLEMissing@115200: no device /dev/ttySwiftBLEMissing — is the adapter plugged in?")
    }

    @Test("A file that is not a tty is refused")
    func notATerminal() {
        let error = #expect(throws: TransportError.self) { _ = try SerialTransport.open(device: "/dev/null") }
        #expect(error?.message == "serial:/dev/null@115200: /dev/null is not a serial device")
    }
}
