import BLEHost
import BLEWire
import Foundation
import Testing

extension BumbleInterop {
    /// OUR ``Host`` actor against Bumble hosts over stock Bumble controllers: the connection
    /// parameter update requested by each side (Core 5.4, Vol 3, Part A, §4.20–4.21; Part C,
    /// §9.3.9) and several links at once.
    @Suite("Link procedures with Bumble")
    struct BumbleLinkInteropTests {
        static let bumbleRequester = BluetoothAddress(0xC05B_0000_0013, kind: .random)
        static let bumbleEchoServers = [BluetoothAddress(0xC05B_0000_0011, kind: .random), BluetoothAddress(0xC05B_0000_0021, kind: .random)]

        static func connectRequest(_ peer: BluetoothAddress) -> GAPConnectRequest {
            GAPConnectRequest(peer: peer, peerAddressType: .random, timeout: 60_000_000, useRandomAddress: true)
        }

        static let advertising = GAPAdvertisingParameters(
            data: AdvertisingData(structures: [.flags([.leGeneralDiscoverable, .brEdrNotSupported]), .completeLocalName("SwiftBLE-Link")]),
            useRandomAddress: true)

        @Test("a Bumble peripheral's Connection Parameter Update Request is accepted and applied by our central")
        func peripheralRequestsUpdate() async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            // 45–60 ms, latency 2, 5 s: 36–48 in 1.25 ms units, 500 in 10 ms units.
            let requester = try bench.peer(on: 1, ["request-parameters", "--interval-min", "45", "--interval-max", "60",
                                                   "--latency", "2", "--timeout", "5000"])
            defer { requester.stop() }
            try #require(await requester.event("advertising", seconds: patience) != nil, "\(requester.lines.all)")
            let ours = try await bench.ourHost(on: 0, capture: "parameter-update-by-bumble")
            let events = ours.host.events
            let l2capEvents = ours.host.l2capEvents
            let link = try await ours.host.connect(Self.connectRequest(Self.bumbleRequester))
            #expect(link.role == .central)

            let requested = try await firstElement(of: l2capEvents, within: patience) {
                if case .connectionParameterUpdateRequested = $0.output { return true } else { return false }
            }
            guard case let .connectionParameterUpdateRequested(intervalMin, intervalMax, latency, timeout, _) = requested.output else {
                Issue.record("no request: \(requested)")
                return
            }
            #expect(requested.handle == link.handle)
            #expect([intervalMin, intervalMax, latency, timeout] == [36, 48, 2, 500])
            let updated = try await firstElement(of: events, within: patience) {
                if case .connectionParametersUpdated(link.handle, _) = $0 { return true } else { return false }
            }
            // Bumble's controller picks the interval maximum (NOTES.md §3.5).
            let applied = GAPConnectionParameters(interval: 48, latency: 2, supervisionTimeout: 500)
            #expect(updated == .connectionParametersUpdated(handle: link.handle, applied))
            #expect(await ours.host.connections.first?.parameters == applied)

            let answer = await requester.event("parameters_requested", seconds: patience)
            #expect(answer?["accepted"] as? Bool == true, "\(requester.lines.all)")
            let bumbleSees = await requester.event("parameters_updated", seconds: patience)
            #expect(bumbleSees?["interval_ms"] as? Double == 60)
            #expect(bumbleSees?["latency"] as? Int == 2)
            #expect(bumbleSees?["timeout_ms"] as? Double == 5000)

            try await ours.host.disconnect(link.handle)
            #expect(await requester.event("disconnected", seconds: patience) != nil)
            try await ours.finish()
        }

        @Test("our peripheral's parameter update request is accepted by a Bumble central and the call returns the new values")
        func weRequestUpdate() async throws {
            let bench = try await BumbleBench(controllers: 2)
            defer { bench.stop() }
            let ours = try await bench.ourHost(on: 0, capture: "parameter-update-by-us")
            let events = ours.host.events
            try await ours.host.startAdvertising(Self.advertising)
            let central = try bench.peer(on: 1, script: "bumble_peer.py", ["connect", ours.peerArgument, "--hold", "3600"])
            defer { central.stop() }
            let up = try await firstElement(of: events, within: patience) {
                if case .connected = $0 { return true } else { return false }
            }
            guard case let .connected(link) = up else { return }
            #expect(link.role == .peripheral)
            try #require(await central.event("connected", seconds: patience) != nil, "\(central.lines.all)")
            // Bumble's controller gives a new peripheral 12.5 ms, latency 0, 100 ms (NOTES.md §3.5).
            #expect(link.parameters == GAPConnectionParameters(interval: 10, latency: 0, supervisionTimeout: 10))

            let wanted = HCI.LEConnectionParameters(connectionIntervalMin: 40, connectionIntervalMax: 56, maxLatency: 1,
                                                    supervisionTimeout: 600, minCELength: 0, maxCELength: 0)
            let host = ours.host
            let updated = try await patiently(host) { try await host.updateConnectionParameters(link.handle, to: wanted) }
            #expect(updated == GAPConnectionParameters(interval: 56, latency: 1, supervisionTimeout: 600))
            let bumbleSees = await central.event("parameters_updated", seconds: patience)
            #expect(bumbleSees?["interval_ms"] as? Double == 70, "\(central.lines.all)")
            #expect(bumbleSees?["latency"] as? Int == 1)
            #expect(bumbleSees?["timeout_ms"] as? Double == 6000)
            #expect(await ours.host.l2capCounters(handle: link.handle)?.commandRejectsReceived == 0)

            try await ours.host.disconnect(link.handle)
            let down = await central.event("disconnected", seconds: patience)
            #expect(down?["by"] as? String == "peer", "\(central.lines.all)")
            try await ours.finish()
        }

        @Test("our central holds links to two Bumble peripherals at once; both carry channel data and both disconnect")
        func twoPeripheralsAtOnce() async throws {
            let bench = try await BumbleBench(controllers: 3)
            defer { bench.stop() }
            let servers = try (1 ... 2).map { index in
                try bench.peer(on: index, ["--address", Self.bumbleEchoServers[index - 1].description,
                                           "l2cap-echo-server", "--psm", "0x80", "--name", "SwiftBLE-Echo-\(index)"])
            }
            defer { servers.forEach { $0.stop() } }
            for server in servers { try #require(await server.event("advertising", seconds: patience) != nil, "\(server.lines.all)") }
            let ours = try await bench.ourHost(on: 0, capture: "two-centrals")
            let host = ours.host
            async let first = host.connect(Self.connectRequest(Self.bumbleEchoServers[0]))
            async let second = host.connect(Self.connectRequest(Self.bumbleEchoServers[1]))
            let links = try await [first, second]
            #expect(Set(links.map(\.handle)).count == 2)
            #expect(await host.connections.count == 2)
            #expect(links.map(\.peer) == Self.bumbleEchoServers)

            let channels = try await [
                host.openChannel(psm: 0x80, on: links[0].handle), host.openChannel(psm: 0x80, on: links[1].handle),
            ]
            async let firstEcho = echoThroughPeer(host, on: channels[0].id, count: 500, seed: 1)
            async let secondEcho = echoThroughPeer(host, on: channels[1].id, count: 500, seed: 2)
            let outcomes = try await [firstEcho, secondEcho]
            for outcome in outcomes {
                #expect(outcome.sdus == 500)
                #expect(outcome.mismatches == 0, "first mismatch at \(String(describing: outcome.firstMismatch))")
            }
            #expect(await host.connections.count == 2, "both links stay up while both carry data")

            for link in links { try await host.disconnect(link.handle) }
            for server in servers {
                let closed = await server.event("channel_closed", seconds: patience)
                #expect(closed?["sdus"] as? Int == 500, "\(server.lines.all.suffix(4))")
                #expect(await server.event("disconnected", seconds: patience) != nil)
            }
            #expect(await host.connections.isEmpty)
            try await ours.finish()
        }

        @Test("our host is central to one Bumble peer and peripheral to another at once, with channel data on both links")
        func oneLinkInEachRole() async throws {
            let bench = try await BumbleBench(controllers: 3)
            defer { bench.stop() }
            let server = try bench.peer(on: 1, ["l2cap-echo-server", "--psm", "0x80"])
            defer { server.stop() }
            try #require(await server.event("advertising", seconds: patience) != nil, "\(server.lines.all)")
            let ours = try await bench.ourHost(on: 0, capture: "both-roles")
            let host = ours.host
            let events = host.events
            let asCentral = try await host.connect(Self.connectRequest(Self.bumbleEchoServers[0]))
            let echo = await OurEchoServer(host, psm: 0x81)
            defer { echo.stop() }
            try await host.startAdvertising(Self.advertising)
            let client = try bench.peer(on: 2, ["l2cap-echo-client", ours.peerArgument, "--psm", "0x81", "--count", "300"])
            defer { client.stop() }
            let second = try await firstElement(of: events, within: patience) {
                if case let .connected(link) = $0 { return link.role == .peripheral } else { return false }
            }
            guard case let .connected(asPeripheral) = second else { return }
            #expect(await host.connections.count == 2)

            let channel = try await host.openChannel(psm: 0x80, on: asCentral.handle)
            let outcome = try await echoThroughPeer(host, on: channel.id, count: 300, seed: 3)
            #expect(outcome.sdus == 300)
            #expect(outcome.mismatches == 0)
            let summary = await client.event("summary", seconds: patience)
            #expect(summary?["sdus"] as? Int == 300, "\(client.lines.all.suffix(4))")
            #expect(summary?["mismatches"] as? Int == 0)
            #expect(echo.channels.values.first?.sdus == 300)

            try await host.disconnect(asCentral.handle)
            try await host.disconnect(asPeripheral.handle)
            #expect(await server.event("disconnected", seconds: patience) != nil)
            #expect(await client.event("disconnected", seconds: patience)?["by"] as? String == "peer")
            #expect(await host.connections.isEmpty)
            try await ours.finish()
        }
    }
}
