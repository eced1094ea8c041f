import BLEHost
import BLEWire
import SimulatedTesting
import Testing

@Suite("SMP PDUs of a pairing that is not running", .simulated, .serialized, .timeLimit(.minutes(3)))
struct HostStraySMPTests {
    /// A Pairing Random (0x04) the peer sends after our Pairing Failed reached it, or with no
    /// pairing at all, starts nothing and reports no failure (Vol 3, Part H, §3.5.5 ended
    /// the procedure); it is counted. Pairing afterwards works.
    @Test("a stray Pairing Random on an idle link is dropped and counted, no failure is reported, and pairing then works")
    func strayRandom() async throws {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal")
        let events = hosts.peripheral.securityEvents
        // Straight into the central's controller, past its host: L2CAP length 17, CID 0x0006.
        let random: [UInt8] = [0x11, 0x00, 0x06, 0x00, 0x04] + [UInt8](repeating: 0xA5, count: 16)
        hosts.running.transports[1].runner.submit(
            .acl(HCI.ACLPacket(connectionHandle: hosts.centralHandle, packetBoundary: .firstAutomaticallyFlushable, data: random[...])),
            to: hosts.running.transports[1].device)
        try await waitUntil(within: patience) { await hosts.peripheral.strayPairingPDUsDropped == 1 }

        let result = try await hosts.central.pair(hosts.centralHandle)
        #expect(result.bonded)
        for await event in events {
            if case .pairingFailed = event { Issue.record("a failure was reported: \(event)") }
            if case .paired = event { break }
        }
        #expect(await hosts.peripheral.strayPairingPDUsDropped == 1)
        await hosts.close()
    }
}
