import BLETransport
import BLEWire
import Glibc
import Testing

@Suite("HCI user channel", .timeLimit(.minutes(1)))
struct UserChannelTransportTests {
    @Test("Each packet leaves in exactly one message")
    func onePacketPerMessage() async throws {
        let (ours, theirs) = try makeSequencedPacketPair()
        defer { close(theirs) }
        let transport = try UserChannelTransport(adoptingDescriptor: ours, label: "hci:test")
        var random = TransportTestRandom(seed: 31)
        let sent = (0 ..< 100).map { _ in random.packet(maximumPayload: 1000) }
        async let messages = onPeerThread { () -> [[UInt8]] in
            (0 ..< sent.count).compactMap { _ in readSome(theirs, 70_000) }
        }
        for packet in sent { try await transport.send(packet) }
        #expect(await messages == sent.map { $0.encoded() })
        await transport.close()
    }

    @Test("Each message arrives as exactly one packet, and the peer closing finishes packets")
    func oneMessagePerPacket() async throws {
        let (ours, theirs) = try makeSequencedPacketPair()
        let transport = try UserChannelTransport(adoptingDescriptor: ours, label: "hci:test")
        var random = TransportTestRandom(seed: 32)
        let sent = (0 ..< 100).map { _ in random.packet(maximumPayload: 1000) }
        let messages = sent.map { $0.encoded() }
        async let wrote = onPeerThread {
            defer { close(theirs) }
            return messages.allSatisfy { writeAll(theirs, $0) }
        }
        #expect(await wrote)
        #expect(try await collect(transport.packets, count: .max) == sent)
    }

    @Test("A message that is not one whole H4 packet makes packets throw")
    func badMessageThrows() async throws {
        let (ours, theirs) = try makeSequencedPacketPair()
        defer { close(theirs) }
        let transport = try UserChannelTransport(adoptingDescriptor: ours, label: "hci:test")
        // An event whose length octet promises 4 parameters but carries 1.
        #expect(writeAll(theirs, [0x04, 0x0E, 0x04, 0x01]))
        let error = await #expect(throws: TransportError.self) { _ = try await collect(transport.packets, count: 1) }
        #expect(error?.message.hasPrefix("hci:test sent octets that are not a valid H4 packet") == true)
    }

    @Test("Closing finishes packets and a later send fails")
    func closeFinishes() async throws {
        let (ours, theirs) = try makeSequencedPacketPair()
        defer { close(theirs) }
        let transport = try UserChannelTransport(adoptingDescriptor: ours, label: "hci:test")
        await transport.close()
        #expect(try await collect(transport.packets, count: .max).isEmpty)
        await #expect(throws: TransportError("hci:test is closed")) {
            try await transport.send(.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03))))
        }
        #expect(readSome(theirs) == nil)  // our end is closed: end of stream
    }

    @Test("Opening hci:0 on this machine fails with a sentence that says what to do")
    func openingHCI0() {
        let error = #expect(throws: TransportError.self) { _ = try UserChannelTransport.open(index: 0) }
        guard let error else { return }
        #expect(error.errno != nil)
        #expect(error == UserChannelTransport.openError(index: 0, errno: error.errno ?? 0))
        if error.errno == EAFNOSUPPORT {
            // The expected case in a container: no Bluetooth in the kernel.
            #expect(error.message == "this kernel has no Bluetooth support (AF_BLUETOOTH), so hci:0 cannot be opened")
        }
    }

    @Test("Each kernel refusal has its own advice", arguments: [
        (EAFNOSUPPORT, "this kernel has no Bluetooth support (AF_BLUETOOTH), so hci:2 cannot be opened"),
        (EPERM, "hci:2 needs CAP_NET_ADMIN: run with sudo, or give the executable the capability (sudo setcap cap_net_admin+ep PATH)"),
        (EACCES, "hci:2 needs CAP_NET_ADMIN: run with sudo, or give the executable the capability (sudo setcap cap_net_admin+ep PATH)"),
        (EBUSY, "hci:2 is in use: power it off for bluetoothd with `sudo btmgmt --index 2 power off`, or stop the program that has it open on the HCI user channel"),
        (EUSERS, "hci:2 is already open on the HCI user channel by another program: stop that program first"),
        (ENODEV, "no adapter hci:2: /sys/class/bluetooth lists this kernel's adapters"),
        (ERFKILL, "hci:2 is blocked by rfkill: `rfkill unblock bluetooth`"),
        (EINVAL, "could not open hci:2: invalid argument"),
    ])
    func openErrors(code: Int32, message: String) {
        #expect(UserChannelTransport.openError(index: 2, errno: code) == TransportError(message, errno: code))
    }

    @Test("A busy adapter's advice names who has it: the kernel's stack or another user-channel program")
    func busyAdvice() {
        #expect(UserChannelTransport.openError(index: 1, errno: EBUSY, managedByKernel: true).message
                == "hci:1 is powered on for the kernel's Bluetooth stack (bluetoothd): power it off first with "
                + "`sudo btmgmt --index 1 power off`, or stop bluetoothd")
        #expect(UserChannelTransport.openError(index: 1, errno: EBUSY, managedByKernel: false).message
                == "hci:1 is already open on the HCI user channel by another program: stop that program first")
    }

    @Test("The kernel's Read Controller Index List reply is decoded; anything else is not taken for it")
    func managementIndexList() {
        // Command Complete (0x0001), index 0xFFFF, length 7: opcode 0x0003, status 0, 2 adapters: 0 and 3.
        let reply: [UInt8] = [0x01, 0x00, 0xFF, 0xFF, 0x09, 0x00, 0x03, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00]
        #expect(KernelManagement.controllerIndices(inReply: reply) == [0, 3])
        #expect(KernelManagement.controllerIndices(inReply: [0x01, 0x00, 0xFF, 0xFF, 0x05, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00]) == [])
        // Too short, a count beyond the message, a failed status, another opcode, another event.
        #expect(KernelManagement.controllerIndices(inReply: Array(reply.prefix(5))) == nil)
        #expect(KernelManagement.controllerIndices(inReply: Array(reply.prefix(13))) == nil)
        var failed = reply
        failed[8] = 0x0D
        #expect(KernelManagement.controllerIndices(inReply: failed) == nil)
        var otherOpcode = reply
        otherOpcode[6] = 0x04
        #expect(KernelManagement.controllerIndices(inReply: otherOpcode) == nil)
        #expect(KernelManagement.controllerIndices(inReply: [0x04, 0x00, 0x00, 0x00, 0x00, 0x00]) == nil)
    }
}
