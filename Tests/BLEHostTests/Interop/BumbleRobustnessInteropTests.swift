import BLEHost
import BLEWire
import Foundation
import Testing

extension BumbleInterop {
    /// Bad input from a real peer over Bumble's controllers (DESIGN.md, "Bad input is a normal
    /// input"): broken LE signaling gets Command Reject (Core 5.4, Vol 3, Part A, §4.1), an
    /// oversized SDU closes only its channel (§3.4.3), ACL for an unknown handle is dropped and
    /// counted, and the host keeps working through all of it.
    @Suite("Bad input from Bumble peers")
    struct BumbleRobustnessInteropTests {
        static let bumbleEchoServer = BluetoothAddress(0xC05B_0000_0011, kind: .random)

        static func advertising(_ name: String) -> GAPAdvertisingParameters {
            GAPAdvertisingParameters(
                data: AdvertisingData(structures: [.flags([.leGeneralDiscoverable, .brEdrNotSupported]), .completeLocalName(name)]),
                useRandomAddress: true)
        }

        /// A Command Reject as Bumble reports it.
        struct Reject: Hashable, CustomStringConvertible {
            var identifier: Int
            var reason: Int
            var data: String
            var description: String { "id 0x\(String(identifier, radix: 16)) reason \(reason) data \(data)" }
        }

        @Test("malformed LE signaling commands from a Bumble central get Command Reject with the right reason; the link keeps working")
        func malformedSignaling() async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let ours = try await bench.ourHost(on: 0, capture: "malformed-signaling")
            let echo = await OurEchoServer(ours.host, psm: 0x82)
            defer { echo.stop() }
            let events = ours.host.events
            try await ours.host.startAdvertising(Self.advertising("SwiftBLE-Signaling"))
            let fuzzer = try bench.peer(on: 1, ["malformed-signaling", ours.peerArgument, "--psm", "0x82"])
            defer { fuzzer.stop() }
            let up = try await firstElement(of: events, within: patience) {
                if case .connected = $0 { return true } else { return false }
            }
            guard case let .connected(link) = up else { return }
            let summary = try #require(await fuzzer.event("summary", seconds: patience), "\(fuzzer.lines.all)")
            let rejects = (summary["rejects"] as? [[String: Any]] ?? []).map {
                Reject(identifier: $0["identifier"] as? Int ?? -1, reason: $0["reason"] as? Int ?? -1, data: $0["data"] as? String ?? "?")
            }
            // Reasons (§4.1): 0x0000 command not understood, 0x0001 signaling MTU exceeded (data:
            // our MTUsig, 23), 0x0002 invalid CID in request (data: the request's destination
            // and source CIDs, from our side: local then remote).
            #expect(rejects == [
                Reject(identifier: 0x21, reason: 0, data: ""),          // unknown code 0x7F
                Reject(identifier: 0x22, reason: 0, data: ""),          // LE Credit Based Connection Request cut to 4 octets
                Reject(identifier: 0x23, reason: 0, data: ""),          // length field longer than the data
                Reject(identifier: 0x24, reason: 0, data: ""),          // length field shorter than the data
                Reject(identifier: 0x25, reason: 2, data: "7e004100"),  // Disconnection Request for a CID that is not open
                Reject(identifier: 0x26, reason: 1, data: "1700"),      // a 30-octet command, over MTUsig
                Reject(identifier: 0x27, reason: 0, data: ""),          // Connection Parameter Update Request sent by the central
                Reject(identifier: 0x29, reason: 0, data: ""),          // code and identifier only
            ])
            // The barrier: a well-formed request to an unserved PSM, refused "SPSM not supported".
            #expect(summary["refused"] as? Int == 0x0002)
            #expect(summary["echo_ok"] as? Bool == true)
            let counters = try #require(await ours.host.l2capCounters(handle: link.handle))
            #expect(counters.commandRejectsSent == 8)
            // Identifier 0 and the unsolicited Command Reject get no answer at all.
            #expect(counters.signalingCommandsDiscarded == 2)
            #expect(counters.commandRejectsReceived == 1)
            #expect(echo.channels.values.map(\.sdus) == [1])

            try await ours.host.disconnect(link.handle)
            #expect(await fuzzer.event("disconnected", seconds: patience) != nil)
            #expect(await ours.host.counters == HCIDriverCounters())
            try await ours.finish(clean: .sentFrames(brokenReceivedAtMost: 10))
        }

        @Test("an SDU longer than our MTU closes only its channel: Bumble gets a Disconnection Request for it, the other channel still echoes")
        func oversizedSDU() async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let ours = try await bench.ourHost(on: 0, capture: "oversized-sdu")
            let echo = await OurEchoServer(ours.host, psm: 0x83, parameters: HostChannelParameters(mtu: 100, mps: 100, initialCredits: 8))
            defer { echo.stop() }
            try await ours.host.startAdvertising(Self.advertising("SwiftBLE-MTU"))
            let peer = try bench.peer(on: 1, ["oversized-sdu", ours.peerArgument, "--psm", "0x83", "--peer-mtu", "100"])
            defer { peer.stop() }
            let summary = try #require(await peer.event("summary", seconds: patience), "\(peer.lines.all)")
            #expect(summary["victim_closed"] as? Bool == true)
            // Our Disconnection Request (§4.6) names Bumble's CID as destination and ours as source.
            let requests = summary["disconnection_requests"] as? [[String: Int]] ?? []
            #expect(requests == [["destination_cid": summary["victim_cid"] as? Int ?? -1,
                                  "source_cid": summary["victim_peer_cid"] as? Int ?? -1]], "\(summary)")
            #expect(summary["survivor_open"] as? Bool == true)
            #expect(summary["echo_ok"] as? Bool == true)

            let channels = echo.channels
            #expect(channels.count == 2)
            let victim = try #require(channels.first { $0.value.ended }?.key, "no channel closed: \(channels)")
            let survivor = try #require(channels.first { !$0.value.ended }?.key, "every channel closed: \(channels)")
            #expect(channels[victim]?.sdus == 0)
            #expect(Int(victim.localCID.rawValue) == summary["victim_peer_cid"] as? Int)
            #expect(channels[survivor]?.sdus == 1)
            await #expect(throws: HostChannelError.closed(.sduExceedsMTU)) { try await ours.host.send([1], on: victim) }
            #expect(await ours.host.channelStatus(survivor) != nil)
            let counters = try #require(await ours.host.l2capCounters(handle: victim.handle))
            #expect(counters.channelsClosedForViolation == 1)

            try await ours.host.disconnect(victim.handle)
            #expect(await peer.event("disconnected", seconds: patience) != nil)
            try await ours.finish(clean: .sentFrames(brokenReceivedAtMost: 1))
        }

        @Test("ACL data for an unknown handle is dropped and counted, and the link keeps carrying data")
        func unknownHandle() async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let server = try bench.peer(on: 1, ["l2cap-echo-server", "--psm", "0x80"])
            defer { server.stop() }
            try #require(await server.event("advertising", seconds: patience) != nil, "\(server.lines.all)")
            let ours = try await bench.ourHost(on: 0, capture: "unknown-handle")
            let host = ours.host
            let link = try await host.connect(GAPConnectRequest(peer: Self.bumbleEchoServer, peerAddressType: .random,
                                                                timeout: 60_000_000, useRandomAddress: true))
            let channel = try await host.openChannel(psm: 0x80, on: link.handle)
            let before = try await echoThroughPeer(host, on: channel.id, count: 20, seed: 7)
            #expect(before.mismatches == 0)
            #expect(await host.counters == HCIDriverCounters())

            // An ATT Read Request (L2CAP CID 4) on a handle no connection has, and a continuation
            // fragment on the live handle with no frame started, as a faulty controller might send.
            let l2cap: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00]
            ours.transport.inject(.acl(HCI.ACLPacket(connectionHandle: 0x0EFE, packetBoundary: .firstAutomaticallyFlushable, data: l2cap[...])))
            ours.transport.inject(.acl(HCI.ACLPacket(connectionHandle: link.handle, packetBoundary: .continuing, data: [0xAA, 0xBB][...])))
            // The echoes come after the injected packets on the same stream, so the host has
            // handled those once the echoes are back.
            let after = try await echoThroughPeer(host, on: channel.id, count: 20, seed: 8)
            #expect(after.sdus == 20)
            #expect(after.mismatches == 0)
            var expected = HCIDriverCounters()
            expected.unknownHandlePackets = 1
            expected.continuationWithoutStart = 1
            #expect(await host.counters == expected)
            #expect(await host.connections.map(\.handle) == [link.handle])

            try await host.disconnect(link.handle)
            #expect(await server.event("disconnected", seconds: patience) != nil)
            // tshark rightly finds fault with the injected Read Request (a handle no server has).
            try await ours.finish(clean: .sentFrames(brokenReceivedAtMost: 1))
        }
    }
}
