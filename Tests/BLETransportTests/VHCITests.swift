import BLETransport
import BLEWire
import Glibc
import Testing

/// The `/dev/vhci` protocol (drivers/bluetooth/hci_vhci.c), sans I/O: the create handshake and
/// the one-packet-per-read framing, with what the kernel or a controller may not send.
@Suite("Linux virtual HCI (/dev/vhci) framing")
struct VHCIFramingTests {
    @Test("The create request for a primary controller is FF 00")
    func createRequest() {
        #expect(VHCI.CreateRequest.primary.encoded == [0xFF, 0x00])
    }

    @Test("The kernel's answer FF 00 <index le16> names the adapter")
    func createResponse() throws {
        let response = try VHCI.CreateResponse(decoding: [0xFF, 0x00, 0x02, 0x01])
        #expect(response == VHCI.CreateResponse(opcode: 0x00, index: 0x0102))
        #expect(response.interfaceName == "hci258")
        #expect(response.encoded == [0xFF, 0x00, 0x02, 0x01])
    }

    @Test("An answer that is not four octets starting FF is refused", arguments: [
        [0xFF, 0x00, 0x00], [0xFF, 0x00, 0x00, 0x00, 0x00], [0x04, 0x0E, 0x04, 0x01], [0xFF],
    ] as [[UInt8]])
    func badCreateResponse(octets: [UInt8]) {
        #expect(throws: VHCI.PacketError.expectedCreateResponse(octets)) { try VHCI.CreateResponse(decoding: octets) }
    }

    @Test("An empty answer is refused")
    func emptyCreateResponse() {
        #expect(throws: VHCI.PacketError.empty) { try VHCI.CreateResponse(decoding: []) }
    }

    @Test("A command from the kernel decodes as one H4 packet")
    func commandFromKernel() throws {
        // HCI_Reset.
        let packet = try VHCI.decodeFromKernel([0x01, 0x03, 0x0C, 0x00])
        #expect(packet == .command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03))))
    }

    @Test("ACL data from the kernel decodes as one H4 packet")
    func aclFromKernel() throws {
        let octets: [UInt8] = [0x02, 0x40, 0x00, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0A]
        let packet = try VHCI.decodeFromKernel(octets)
        #expect(packet.encoded() == octets)
    }

    @Test("A read whose length field disagrees with its octets is malformed")
    func lengthMismatch() {
        // A command announcing 4 parameter octets and carrying 1, then one carrying 2 too many.
        for octets: [UInt8] in [[0x01, 0x03, 0x0C, 0x04, 0x00], [0x01, 0x03, 0x0C, 0x00, 0xAA, 0xBB]] {
            #expect {
                try VHCI.decodeFromKernel(octets)
            } throws: { error in
                guard case .malformed(.command, _) = error as? VHCI.PacketError else { return false }
                return true
            }
        }
    }

    @Test("An event from the kernel is refused: only a controller sends events")
    func eventFromKernel() {
        #expect(throws: VHCI.PacketError.wrongDirection(.event, from: .kernel)) {
            try VHCI.decodeFromKernel([0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        }
    }

    @Test("An unknown packet type, an empty read and a late vendor packet are refused")
    func unknownTypes() {
        #expect(throws: VHCI.PacketError.unknownPacketType(0x07)) { try VHCI.decodeFromKernel([0x07, 0x00]) }
        #expect(throws: VHCI.PacketError.empty) { try VHCI.decodeFromKernel([]) }
        #expect(throws: VHCI.PacketError.unexpectedVendorPacket([0xFF, 0x00, 0x00, 0x00])) {
            try VHCI.decodeFromKernel([0xFF, 0x00, 0x00, 0x00])
        }
    }

    @Test("A command from the controller is refused; events and data pass")
    func controllerDirection() throws {
        #expect(throws: VHCI.PacketError.wrongDirection(.command, from: .controller)) {
            try VHCI.validateFromController(.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03))))
        }
        try VHCI.validateFromController(.event(HCI.EventPacket(eventCode: HCI.EventCode(rawValue: 0x0E), parameters: [0x01])))
    }

    @Test("Errors read as sentences naming the packet")
    func descriptions() {
        #expect(VHCI.PacketError.wrongDirection(.event, from: .kernel).description
            == "an HCI event packet, which only a controller sends")
        #expect(VHCI.PacketError.unknownPacketType(0x07).description == "a packet of unknown type 0x07 (H4 knows 0x01 to 0x05)")
    }
}

/// ``VHCITransport`` over a `SOCK_SEQPACKET` pair standing in for `/dev/vhci`: one message is
/// one read or write of the device, as the kernel makes them.
@Suite("Linux virtual HCI transport", .timeLimit(.minutes(1)))
struct VHCITransportTests {
    private let response = VHCI.CreateResponse(opcode: 0x00, index: 0)

    @Test("Commands from the kernel arrive as packets; events go to it one per write")
    func relaysBothWays() async throws {
        let (ours, kernel) = try makeSequencedPacketPair()
        defer { close(kernel) }
        let transport = try VHCITransport(adoptingDescriptor: ours, response: response, path: "/dev/vhci-test")
        #expect(writeAll(kernel, [0x01, 0x03, 0x0C, 0x00]))
        #expect(try await collect(transport.packets, count: 1) == [.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03)))])
        let event = H4.Packet.event(HCI.EventPacket(eventCode: HCI.EventCode(rawValue: 0x0E), parameters: [0x01, 0x03, 0x0C, 0x00]))
        try await transport.send(event)
        #expect(await onPeerThread { readSome(kernel) } == event.encoded())
        await transport.close()
    }

    @Test("A malformed packet from the kernel ends the transport with a sentence that says so")
    func malformedFromKernel() async throws {
        let (ours, kernel) = try makeSequencedPacketPair()
        defer { close(kernel) }
        let transport = try VHCITransport(adoptingDescriptor: ours, response: response, path: "/dev/vhci-test")
        #expect(writeAll(kernel, [0x01, 0x03, 0x0C, 0x04, 0x00]))
        let error = await #expect(throws: TransportError.self) { _ = try await collect(transport.packets, count: .max) }
        #expect(error?.message.hasPrefix("the kernel sent a malformed command packet") == true)
        #expect(error?.message.contains("/dev/vhci-test (hci0)") == true)
    }

    @Test("An event from the kernel ends the transport")
    func eventFromKernel() async throws {
        let (ours, kernel) = try makeSequencedPacketPair()
        defer { close(kernel) }
        let transport = try VHCITransport(adoptingDescriptor: ours, response: response, path: "/dev/vhci-test")
        #expect(writeAll(kernel, [0x04, 0x0E, 0x01, 0x01]))
        let error = await #expect(throws: TransportError.self) { _ = try await collect(transport.packets, count: .max) }
        #expect(error?.message.contains("the kernel sent an HCI event packet, which only a controller sends") == true)
    }

    @Test("A command handed to the kernel as if from a controller is refused, and the transport goes on")
    func commandToKernel() async throws {
        let (ours, kernel) = try makeSequencedPacketPair()
        defer { close(kernel) }
        let transport = try VHCITransport(adoptingDescriptor: ours, response: response, path: "/dev/vhci-test")
        let error = await #expect(throws: TransportError.self) {
            try await transport.send(.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03))))
        }
        #expect(error?.message.hasPrefix("the controller sent an HCI command packet") == true)
        let event = H4.Packet.event(HCI.EventPacket(eventCode: HCI.EventCode(rawValue: 0x0E), parameters: [0x01]))
        try await transport.send(event)
        #expect(await onPeerThread { readSome(kernel) } == event.encoded())
        await transport.close()
    }

    @Test("Opening a missing device says to load hci_vhci")
    func missingDevice() async {
        let error = await #expect(throws: TransportError.self) {
            _ = try await VHCITransport.open(path: "/nonexistent/vhci")
        }
        #expect(error?.errno == ENOENT)
        #expect(error?.message.contains("modprobe hci_vhci") == true)
    }

    @Test("A device this user may not open says how to get access")
    func permissionDenied() {
        let error = VHCITransport.openError(path: "/dev/vhci", errno: EACCES)
        #expect(error.message.hasPrefix("/dev/vhci is not open to this user: run with sudo"))
    }

    @Test("A device whose first answer is not the create response is refused")
    func wrongFirstAnswer() async throws {
        // A FIFO pair stands in for a device that answers with an event: write our request
        // into one, read the answer from the other end of a pipe opened read-write.
        let directory = "/tmp/ble-vhci-test-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        #expect(mkdir(directory, 0o700) == 0)
        defer { rmdir(directory) }
        let path = directory + "/vhci"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // Pre-load the FIFO with an event (more than the 2-octet request), which the
        // transport reads back as if it were the kernel's answer.
        let keeper = open(path, O_RDWR)
        defer { close(keeper) }
        #expect(writeAll(keeper, [0x04, 0x0E, 0x01, 0x01]))
        let error = await #expect(throws: TransportError.self) { _ = try await VHCITransport.open(path: path) }
        #expect(error?.message.contains("answered the request to create an adapter with") == true)
    }
}
