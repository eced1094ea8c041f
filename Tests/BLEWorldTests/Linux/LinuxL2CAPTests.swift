import Foundation
import Glibc
import SimulatedTesting
import Testing

/// BlueZ's l2test (Debian bookworm's bluez package ships it) opens an LE credit-based channel
/// through the kernel's L2CAP sockets to `ble l2cap listen`, our echo server. Part of the guest
/// suite (its checks run one at a time).
extension LinuxBlueZTests {
    @Test("l2test opens an LE credit-based channel to ble l2cap listen through the kernel's L2CAP sockets; SDUs segmented at the kernel's MPS come back echoed")
    func l2testUsesOurChannel() throws {
        let fixture = try BridgedGuest.open()
        defer { fixture.close() }
        let guest = fixture.guest
        let world = fixture.world
        let ble = fixture.ble
        let server = try LineProcess(ble, ["l2cap", "listen", "--psm", "0x80", "--json", "--hci", "tcp:127.0.0.1:\(world.ports[1])"])
        defer { server.stop() }
        try #require(server.waitForLine(containing: "\"listening\"", timeoutSeconds: 30) != nil, "\(server.output)")
        // -y: connect, send 3 frames of 600 octets (sequence, length, then 0x7F), then dump what
        // comes back until interrupted; 600 octets cross the kernel's 247-octet MPS in 3 PDUs.
        let client = try guest.run("timeout -s INT 8 l2test -y -V le_public -P 128 -N 3 -b 600 \(peerAddress) 2>&1; true", timeoutSeconds: 60)
        #expect(client.stdout.contains("Connected to \(peerAddress) (le_public, psm 128"), "\(client.stdout)")
        #expect(client.stdout.contains("Received 600 bytes"), "\(client.stdout)")
        // An echoed frame: sequence 0, length 600 (0x0258), l2test's fill.
        #expect(client.stdout.contains("00 00 00 00 58 02 7f 7f"), "\(client.stdout)")
        _ = server.waitForLine(containing: "\"channelClosed\"", timeoutSeconds: 20)
        let events = jsonLines(server.output)
        let opened = events.first { $0["event"] as? String == "channelOpened" }
        #expect(opened?["psm"] as? Int == 128 && opened?["peerMTU"] as? Int == 672, "\(server.output)")
        let closed = events.first { $0["event"] as? String == "channelClosed" }
        #expect(closed?["sdus"] as? Int == 3 && closed?["bytes"] as? Int == 1800, "\(server.output)")
    }
}
