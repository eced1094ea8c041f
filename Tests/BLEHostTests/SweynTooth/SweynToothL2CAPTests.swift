import BLEHost
import BLEWire
import Testing

/// The L2CAP SweynTooth attacks (Garbelini et al., USENIX ATC 2020) as the bytes our host's
/// HCI driver receives from its controller: our controller passes every well-formed LL
/// fragment up unchanged, so these are exactly what a hostile peer gets to our reassembly
/// (Core 5.4, Vol 4, Part E, §5.4.2; Vol 3, Part A, §3.1 and §7.2). Each refused frame is
/// dropped and counted, and the next well-formed frame is reassembled as if nothing happened.
@Suite("SweynTooth: L2CAP fragments against the host's reassembly")
struct SweynToothL2CAPTests {
    static let handle: UInt16 = 0x0040
    /// An ATT Read Request of handle 3 in a B-frame: L2CAP length 3, CID 0x0004.
    static let readRequest: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]

    func connectedHost() -> ScriptedHost {
        var host = ScriptedHost(controller: .typical())
        host.start()
        host.connect(handle: Self.handle)
        _ = host.take()
        return host
    }

    func acl(_ bytes: [UInt8], continuing: Bool = false) -> H4.Packet {
        .acl(HCI.ACLPacket(connectionHandle: Self.handle, packetBoundary: continuing ? .continuing : .firstAutomaticallyFlushable,
                           data: bytes[...]))
    }

    func frames(_ outputs: [HCIDriverOutput]) -> [[UInt8]] {
        outputs.compactMap { if case let .l2capFrame(_, frame) = $0 { frame } else { nil } }
    }

    @Test("Invalid L2CAP Fragment (CVE-2019-19195): a continuation with no start is dropped and counted, the next frame arrives")
    func continuationWithoutStart() {
        var host = connectedHost()
        host.receive(acl([0x0A, 0x03, 0x00, 0xFF, 0xFF], continuing: true))
        #expect(frames(host.take()).isEmpty)
        #expect(host.driver.counters.continuationWithoutStart == 1)
        host.receive(acl(Self.readRequest))
        #expect(frames(host.take()) == [Self.readRequest])
    }

    @Test("Invalid L2CAP Fragment (CVE-2019-19195): a fragment past its frame's L2CAP length drops the frame, the next arrives")
    func fragmentPastItsLength() {
        var host = connectedHost()
        // Start: length 3, one octet of it; continuation: 40 octets where two remain.
        host.receive(acl([0x03, 0x00, 0x04, 0x00, 0x0A]))
        host.receive(acl([UInt8](repeating: 0x41, count: 40), continuing: true))
        #expect(frames(host.take()).isEmpty)
        #expect(host.driver.counters.overlongFrames == 1)
        host.receive(acl([0x03, 0x00, 0x04, 0x00, 0x0A]))
        host.receive(acl([0x03, 0x00], continuing: true))
        #expect(frames(host.take()) == [Self.readRequest])
    }

    @Test("Truncated L2CAP (CVE-2019-17517): a start shorter than its L2CAP length waits, and is abandoned by the next start")
    func truncatedFrame() {
        var host = connectedHost()
        // The authors' truncated Read Request: LL length 5, the L2CAP header and the opcode.
        host.receive(acl([0x03, 0x00, 0x04, 0x00, 0x0A]))
        #expect(frames(host.take()).isEmpty)
        host.receive(acl(Self.readRequest))
        #expect(frames(host.take()) == [Self.readRequest])
        #expect(host.driver.counters.incompleteFrames == 1)
    }

    @Test("Silent Length Overflow (CVE-2019-17518): 114 octets carrying a 3-octet L2CAP payload are dropped, not read past")
    func silentLengthOverflow() {
        var host = connectedHost()
        // What our controller passes up once 251-octet data lengths were negotiated.
        host.receive(acl(Self.readRequest + [UInt8](repeating: 0, count: 114 - Self.readRequest.count)))
        #expect(frames(host.take()).isEmpty)
        #expect(host.driver.counters.overlongFrames == 1)
        host.receive(acl(Self.readRequest))
        #expect(frames(host.take()) == [Self.readRequest])
    }

    @Test("A B-frame announcing 65,535 octets (the largest L2CAP length) in a 27-octet start is held, then refused when it overruns")
    func largestLengthAnnounced() {
        var host = connectedHost()
        host.receive(acl([0xFF, 0xFF, 0x04, 0x00] + [UInt8](repeating: 0x0A, count: 23)))
        #expect(frames(host.take()).isEmpty)
        host.receive(acl(Self.readRequest))
        #expect(frames(host.take()) == [Self.readRequest])
        #expect(host.driver.counters.incompleteFrames == 1)
    }
}
