import BLEHost
import BLEWire
import Foundation
import Testing

extension BumbleInterop {
    /// OUR ``Host`` actor against Bumble hosts over stock Bumble controllers: LE credit-based
    /// channels (Core 5.4, Vol 3, Part A, §3.4.3, §4.22–4.24, §10.1) carrying 10,000 SDUs of 1
    /// to 2000 octets each way, byte for byte.
    @Suite("LE credit-based channels with Bumble")
    struct BumbleChannelInteropTests {
        static let echoCount = 10_000
        /// 251-octet LE ACL buffers for these bulk runs: with the stock 27 octets each run passes
        /// about 800,000 HCI packets and, on a 2-core machine, starves the tests running beside
        /// it for minutes; 27-octet fragmentation is exercised by every other interop test.
        static let bulkACLLength = 251
        static let bumbleEchoServer = BluetoothAddress(0xC05B_0000_0011, kind: .random)

        @Test("our channel to a Bumble echo server carries 10,000 SDUs of 1 to 2000 octets, each echoed byte for byte and in order")
        func weEchoThroughBumble() async throws {
            let bench = try await BumbleBench(controllers: 2, leACLLength: Self.bulkACLLength)
            defer { bench.stop() }
            let server = try bench.peer(on: 1, ["l2cap-echo-server", "--psm", "0x80", "--mtu", "2048", "--mps", "2048"])
            defer { server.stop() }
            try #require(await server.event("advertising", seconds: patience) != nil, "\(server.lines.all)")
            let ours = try await bench.ourHost(on: 0, capture: "coc-echo-to-bumble")
            #expect(await ours.host.controller?.leACLDataPacketLength == Self.bulkACLLength)
            let link = try await ours.host.connect(GAPConnectRequest(peer: Self.bumbleEchoServer, peerAddressType: .random,
                                                                     timeout: 60_000_000, useRandomAddress: true))
            let channel = try await ours.host.openChannel(psm: 0x80, on: link.handle,
                                                          parameters: HostChannelParameters(mtu: 2048, mps: 247, initialCredits: 16))
            #expect(channel.peerMTU == 2048)
            #expect(channel.peerMPS == 2048)
            let opened = await server.event("channel_open", seconds: patience)
            #expect(opened?["peer_mtu"] as? Int == 2048)
            #expect(opened?["peer_mps"] as? Int == 247)

            let start = ContinuousClock.now
            let outcome = try await echoThroughPeer(ours.host, on: channel.id, count: Self.echoCount, seed: 0x5EED)
            let took = seconds(since: start)
            let expectedOctets = outcome.sentOctets
            #expect(!outcome.stalled)
            #expect(outcome.sdus == Self.echoCount)
            #expect(outcome.mismatches == 0, "first mismatch at SDU \(String(describing: outcome.firstMismatch))")
            #expect(outcome.octets == expectedOctets)

            await ours.host.closeChannel(channel.id)
            let closed = await server.event("channel_closed", seconds: patience)
            #expect(closed?["sdus"] as? Int == Self.echoCount, "\(server.lines.all.suffix(5))")
            #expect(closed?["octets"] as? Int == expectedOctets)
            let counters = await ours.host.l2capCounters(handle: link.handle)
            #expect(counters?.sdusSent == Self.echoCount)
            #expect(counters?.sdusReceived == Self.echoCount)
            #expect(counters?.channelsClosedForViolation == 0)
            try await ours.host.disconnect(link.handle)
            #expect(await server.event("disconnected", seconds: patience) != nil)
            print("interop: our host → Bumble echo: \(Self.echoCount) SDUs, \(expectedOctets) octets each way in \(took) s; capture \(ours.capture.packets) packets")
            try await ours.finish()
        }

        @Test("a Bumble client's channel to our echo server carries 10,000 SDUs of 1 to 2000 octets, checked byte for byte by Bumble")
        func bumbleEchoesThroughUs() async throws {
            let bench = try await BumbleBench(controllers: 2, leACLLength: Self.bulkACLLength)
            defer { bench.stop() }
            let ours = try await bench.ourHost(on: 0, capture: "coc-echo-from-bumble")
            let echo = await OurEchoServer(ours.host, psm: 0x81, parameters: HostChannelParameters(mtu: 2048, mps: 247, initialCredits: 16))
            defer { echo.stop() }
            try await ours.host.startAdvertising(GAPAdvertisingParameters(
                data: AdvertisingData(structures: [.flags([.leGeneralDiscoverable, .brEdrNotSupported]), .completeLocalName("SwiftBLE-Echo")]),
                useRandomAddress: true))
            let start = ContinuousClock.now
            let client = try bench.peer(on: 1, ["l2cap-echo-client", ours.peerArgument, "--psm", "0x81",
                                                "--count", "\(Self.echoCount)", "--progress", "1000"])
            defer { client.stop() }
            let opened = await client.event("channel_open", seconds: patience)
            #expect(opened?["peer_mtu"] as? Int == 2048, "\(client.lines.all)")
            #expect(opened?["peer_mps"] as? Int == 247)
            // Progress lines every 1000 echoes: each step is waited for, not the whole run.
            for step in stride(from: 1000, through: Self.echoCount, by: 1000) {
                let line = await client.lines.line(containing: "\"received\": \(step)}", seconds: patience)
                try #require(line != nil, "no progress to \(step): \(client.lines.all.suffix(5))")
            }
            let summary = await client.event("summary", seconds: patience)
            let took = seconds(since: start)
            #expect(summary?["sdus"] as? Int == Self.echoCount, "\(client.lines.all.suffix(5))")
            #expect(summary?["mismatches"] as? Int == 0)
            #expect(summary?["min_size"] as? Int == 1)
            #expect(summary?["max_size"] as? Int == 2000)
            let tallies = echo.channels
            #expect(tallies.count == 1)
            #expect(tallies.values.first?.sdus == Self.echoCount)
            #expect(tallies.values.first?.octets == summary?["sent_octets"] as? Int)
            let link = try #require(await ours.host.connections.first)
            try await ours.host.disconnect(link.handle)
            let disconnected = await client.event("disconnected", seconds: patience)
            #expect(disconnected?["by"] as? String == "peer")
            let bumbleSeconds = summary?["seconds"] as? Double ?? 0
            print("interop: Bumble → our echo: \(Self.echoCount) SDUs in \(bumbleSeconds) s (Bumble's clock), \(took) s with start-up; capture \(ours.capture.packets) packets")
            try await ours.finish()
        }
    }
}
