import BLEHost
import BLEWire
import Foundation
import SimulatedTesting
import Testing

/// tshark as the independent judge of our HCI traffic. Every interop test decodes its own
/// capture when it finishes (``OurHost/finish(clean:)``); these tests show that the check
/// can fail, and that tshark really dissects what we send down to L2CAP rather than
/// passing frames it does not understand.
@Suite("tshark judges our captures", .ownThread,
       .enabled(if: Tshark.executable != nil, "tshark is not installed (apt-get install -y tshark; .ci/run installs it)"))
struct InteropCaptureTests {
    @Test("tshark flags a truncated L2CAP signaling frame as malformed, in either direction")
    func malformedFramesAreFound() async throws {
        let capture = try InteropCapture(name: "deliberately-malformed")
        // A Command Reject cut after its code and identifier, once received and once sent.
        let truncated: [UInt8] = [0x02, 0x00, 0x05, 0x00, 0x01, 0x07]
        let acl = H4.Packet.acl(HCI.ACLPacket(connectionHandle: 1, packetBoundary: .firstAutomaticallyFlushable, data: truncated[...]))
        capture.hook(HostPacketRecord(packet: .command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03), parameters: [])),
                                      outgoing: true, time: 0))
        capture.hook(HostPacketRecord(packet: acl, outgoing: false, time: 10))
        capture.hook(HostPacketRecord(packet: acl, outgoing: true, time: 20))
        capture.close()
        defer { capture.remove() }
        let decode = try await Tshark.decode(capture.path, frames: 3)
        #expect(decode.readAll)
        #expect(decode.malformedReceived == 1, "\(decode.findings)")
        #expect(decode.malformedSent == 1, "\(decode.findings)")
        #expect(decode.findings.map(\.frame) == [2, 3])
    }
}

extension BumbleInterop {
    /// A Bumble session whose capture tshark must dissect down to L2CAP, from our side.
    @Suite("tshark decodes an interop session")
    struct CaptureDecodeInteropTests {
        @Test("tshark decodes a capture of channel set-up, data, credits, a parameter update and teardown with 0 malformed packets",
              .enabled(if: Tshark.executable != nil, "tshark is not installed (apt-get install -y tshark; .ci/run installs it)"))
        func sessionDecodesCleanly() async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let server = try bench.peer(on: 1, ["l2cap-echo-server", "--psm", "0x80", "--mps", "100", "--credits", "4"])
            defer { server.stop() }
            try #require(await server.event("advertising", seconds: patience) != nil, "\(server.lines.all)")
            let ours = try await bench.ourHost(on: 0, capture: "decoded-session")
            let host = ours.host
            let link = try await host.connect(GAPConnectRequest(peer: BluetoothAddress(0xC05B_0000_0011, kind: .random),
                                                                peerAddressType: .random, timeout: 60_000_000, useRandomAddress: true))
            _ = try await patiently(host) {
                try await host.updateConnectionParameters(link.handle, to: HCI.LEConnectionParameters(
                    connectionIntervalMin: 12, connectionIntervalMax: 12, maxLatency: 0, supervisionTimeout: 300, minCELength: 0, maxCELength: 0))
            }
            let channel = try await host.openChannel(psm: 0x80, on: link.handle, parameters: HostChannelParameters(mtu: 2048, mps: 100, initialCredits: 4))
            let outcome = try await echoThroughPeer(host, on: channel.id, count: 100, seed: 9)
            #expect(outcome.mismatches == 0)
            await host.closeChannel(channel.id)
            try await host.disconnect(link.handle)
            await host.close()
            ours.capture.close()
            defer { ours.capture.remove() }

            let decode = try await Tshark.decode(ours.capture.path, frames: ours.capture.packets)
            #expect(decode.readAll)
            #expect(decode.findings.isEmpty, "\(decode.findings.prefix(20))")
            let path = ours.capture.path
            // What tshark must have dissected from our side (hci_h4.direction 0: host to controller).
            let sent = "hci_h4.direction == 0x00 && "
            #expect(try await Tshark.count(path, matching: sent + "bthci_cmd.opcode == 0x2013") == 1, "LE Connection Update")
            #expect(try await Tshark.count(path, matching: sent + "btl2cap.cmd_code == 0x14") == 1, "LE Credit Based Connection Request")
            #expect(try await Tshark.count(path, matching: sent + "btl2cap.cmd_code == 0x16") >= 1, "LE Flow Control Credit")
            #expect(try await Tshark.count(path, matching: sent + "btl2cap.cmd_code == 0x06") == 1, "Disconnection Request")
            #expect(try await Tshark.count(path, matching: "!(hci_h4.direction == 0x00) && btl2cap.cmd_code == 0x15") == 1,
                    "LE Credit Based Connection Response")
            #expect(try await Tshark.count(path, matching: sent + "bthci_cmd.opcode == 0x0406") == 1, "Disconnect")
        }
    }
}
