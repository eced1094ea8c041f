import BLEHost
import BLETransport
import BLEWire
import Foundation
import Testing

extension BumbleInterop {
    /// OUR host cores (HCIDriver + GAPCore over StreamTransport) on a STOCK Bumble virtual
    /// controller (Interop/bumble_controllers.py), with a Bumble host (Interop/bumble_peer.py) on
    /// a second controller of the same link. The controller is not patched: its gaps (interop
    /// NOTES.md §3.13) are what our host must tolerate.
    @Suite("Our host on Bumble's controllers")
    struct BumbleControllerInteropTests {
        /// Controller 1 (ours) and controller 2 (the Bumble peer's), served over TCP.
        final class Link {
            let controllers: InteropProcess
            let ports: [Int]
            let addresses: [String]
            let python: String

            init() async throws {
                python = try bumblePython()
                controllers = try InteropProcess(python, [
                    interopPackageRoot().appendingPathComponent("Interop/bumble_controllers.py").path, "-n", "2",
                ])
                guard let line = await controllers.lines.line(containing: "READY", seconds: patience),
                      let json = line.split(separator: " ", maxSplits: 1).last,
                      let ready = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                      let ports = ready["ports"] as? [Int], let addresses = ready["addresses"] as? [String], ports.count == 2
                else {
                    controllers.stop()
                    throw InteropError(message: "bumble_controllers.py did not get ready: \(controllers.lines.all)")
                }
                self.ports = ports
                self.addresses = addresses
            }

            /// Our host on controller 1, started up.
            func ourHost() async throws -> InteropHost {
                let transport = try await StreamTransport.connect(tcpHost: "127.0.0.1", port: UInt16(ports[0]))
                let host = InteropHost(transport: transport, configuration: .patient)
                await host.start()
                return host
            }

            /// A Bumble host on controller 2 playing `arguments`.
            func peer(_ arguments: [String]) throws -> InteropProcess {
                try InteropProcess(python, [
                    interopPackageRoot().appendingPathComponent("Interop/bumble_peer.py").path, "--port", "\(ports[1])",
                ] + arguments)
            }
        }

        static let bumbleAdvertiser = BluetoothAddress(0xC05B_0000_0001, kind: .random)
        static let bumbleConnector = BluetoothAddress(0xC05B_0000_0005, kind: .random)

        /// Our advertisement: flags, name, a 16-bit service list and manufacturer data.
        static let ourData = AdvertisingData(structures: [
            .flags([.leGeneralDiscoverable, .brEdrNotSupported]), .completeLocalName("SwiftBLE-Ours"),
            .completeList16([0x181A, 0x180F]), .manufacturerData(company: 0xFFFF, data: [0x53, 0x42]),
        ])

        private func ready(_ host: InteropHost) async -> InteropHostState {
            _ = await host.wait(seconds: patience) { $0.controller != nil || $0.failure != nil || $0.transportEnded != nil }
            return await host.snapshot
        }

        @Test("Start-up completes against Bumble's controller and reads its public address")
        func startup() async throws {
            let link = try await Link()
            defer { link.controllers.stop() }
            let host = try await link.ourHost()
            let state = await ready(host)
            await host.close()
            #expect(state.failure == nil)
            let info = try #require(state.controller, "start-up did not finish: \(state)")
            #expect(info.address == BluetoothAddress(0xF000_0000_0001))
            #expect(link.addresses.first == "F0:00:00:00:00:01")
            // Bumble advertises 27-octet LE ACL buffers although it never fragments toward the host.
            #expect(info.leACLDataPacketLength == 27)
            #expect(state.timedOut.isEmpty, "start-up only uses commands Bumble answers: \(state.timedOut)")
        }

        @Test("Our scan sees a Bumble advertiser's name, 16-bit service UUIDs and manufacturer data")
        func ourScanSeesBumble() async throws {
            let link = try await Link()
            defer { link.controllers.stop() }
            // Stock Bumble never sends scan responses, so the name rides in the advertising data.
            let advertiser = try link.peer(["advertise", "--name", "Bumble-Adv", "--name-in-advertising", "--manufacturer", "ffff010203"])
            defer { advertiser.stop() }
            try #require(await advertiser.event("advertising", seconds: patience) != nil, "\(advertiser.lines.all)")
            let host = try await link.ourHost()
            try #require(await ready(host).controller != nil)
            try await host.request { gap, now throws(GAPError) in try gap.startScanning(GAPScanParameters(), at: now) }
            let seen = await host.wait(seconds: patience) { state in
                state.events.contains { if case let .advertisement(ad) = $0 { ad.address == Self.bumbleAdvertiser && !ad.scanResponseBytes.isEmpty } else { false } }
            }
            let state = await host.snapshot
            await host.close()
            #expect(seen, "\(state.events)")
            let advertisement = try #require(state.events.lazy.compactMap { event -> GAPAdvertisement? in
                if case let .advertisement(ad) = event, ad.address == Self.bumbleAdvertiser { return ad }
                return nil
            }.last)
            #expect(advertisement.data.localName == "Bumble-Adv")
            #expect(advertisement.data.serviceUUIDs?.contains(BluetoothUUID(UInt16(0x180F))) == true)
            #expect(advertisement.data.manufacturerData?.companyIdentifier == 0xFFFF)
            #expect(advertisement.data.manufacturerData.map { Array($0.data) } == [0x01, 0x02, 0x03])
            #expect(advertisement.connectable)
            #expect(advertisement.rssi == -50)
            // Bumble's "scan response" repeats the advertising data (NOTES.md §3.4).
            #expect(advertisement.scanResponseBytes == advertisement.advertisingBytes)
        }

        @Test("Bumble's scan sees our advertisement byte for byte")
        func bumbleScanSeesUs() async throws {
            let link = try await Link()
            defer { link.controllers.stop() }
            let host = try await link.ourHost()
            try #require(await ready(host).controller != nil)
            try await host.request { gap, now throws(GAPError) in
                try gap.startAdvertising(GAPAdvertisingParameters(data: Self.ourData), at: now)
            }
            let started = await host.wait(seconds: patience) { $0.events.contains(.advertisingStarted) }
            let afterStart = await host.snapshot
            #expect(started, "\(afterStart.events)")
            let scanner = try link.peer(["scan", "--seconds", "45", "--until-name", "SwiftBLE-Ours"])
            defer { scanner.stop() }
            let report = await scanner.event("summary", seconds: patience)
            await host.close()
            let expected = try Self.ourData.encodedLegacy().map { String(format: "%02x", $0) }.joined()
            let ours = scanner.events.filter { $0["event"] as? String == "report" && $0["address"] as? String == "F0:00:00:00:00:01/P" }
            #expect((report?["names"] as? [String])?.contains("SwiftBLE-Ours") == true, "\(scanner.lines.all)")
            #expect(!ours.isEmpty)
            #expect(ours.allSatisfy { $0["data"] as? String == expected }, "\(ours)")
        }

        @Test("Our central connects to a Bumble peripheral and disconnects; both sides see the reason")
        func weConnect() async throws {
            let link = try await Link()
            defer { link.controllers.stop() }
            let advertiser = try link.peer(["advertise", "--name", "Bumble-Peripheral"])
            defer { advertiser.stop() }
            try #require(await advertiser.event("advertising", seconds: patience) != nil, "\(advertiser.lines.all)")
            let host = try await link.ourHost()
            try #require(await ready(host).controller != nil)
            try await host.request { gap, now throws(GAPError) in
                try gap.connect(GAPConnectRequest(peer: Self.bumbleAdvertiser, peerAddressType: .random), at: now)
            }
            _ = await host.wait(seconds: patience) { $0.events.contains { if case .connected = $0 { true } else { false } } }
            let connecting = await host.snapshot
            let link1 = try #require(connecting.events.lazy.compactMap { event -> GAPConnection? in
                if case let .connected(connection) = event { return connection }
                return nil
            }.first, "\(connecting.events)")
            #expect(link1.role == .central)
            #expect(link1.peer == Self.bumbleAdvertiser)
            let peerConnected = await advertiser.event("connected", seconds: patience)
            #expect((peerConnected?["peer"] as? String)?.hasPrefix("F0:00:00:00:00:01") == true, "\(advertiser.lines.all)")

            try await host.request { gap, now throws(GAPError) in try gap.disconnect(link1.handle, at: now) }
            _ = await host.wait(seconds: patience) { $0.events.contains { if case .disconnected = $0 { true } else { false } } }
            let state = await host.snapshot
            let peerDisconnected = await advertiser.event("disconnected", seconds: patience)
            await host.close()
            // Stock Bumble gives the local side the command's reason, not 0x16 (NOTES.md §3.13 #11).
            #expect(state.events.contains(.disconnected(handle: link1.handle, reason: .remoteUserTerminatedConnection)), "\(state.events)")
            #expect(peerDisconnected != nil, "\(advertiser.lines.all)")
            #expect(peerDisconnected?["reason"] as? Int == 0x13,
                    "\(String(describing: peerDisconnected))")
        }

        @Test("A Bumble central connects to our advertising peripheral and disconnects")
        func bumbleConnects() async throws {
            let link = try await Link()
            defer { link.controllers.stop() }
            let host = try await link.ourHost()
            try #require(await ready(host).controller != nil)
            try await host.request { gap, now throws(GAPError) in
                try gap.startAdvertising(GAPAdvertisingParameters(data: Self.ourData), at: now)
            }
            #expect(await host.wait(seconds: patience) { $0.events.contains(.advertisingStarted) })
            let connector = try link.peer(["connect", "F0:00:00:00:00:01/P", "--hold", "1"])
            defer { connector.stop() }
            let connected = await connector.event("connected", seconds: patience)
            #expect(connected != nil, "\(connector.lines.all)")
            _ = await host.wait(seconds: patience) { $0.events.contains { if case .disconnected = $0 { true } else { false } } }
            let disconnected = await connector.event("disconnected", seconds: patience)
            let state = await host.snapshot
            await host.close()
            let ours = try #require(state.events.lazy.compactMap { event -> GAPConnection? in
                if case let .connected(connection) = event { return connection }
                return nil
            }.first, "\(state.events)")
            #expect(ours.role == .peripheral)
            #expect(ours.peer == Self.bumbleConnector)
            #expect(state.events.contains(.advertisingStopped(connectionHandle: ours.handle)))
            #expect(state.events.contains(.disconnected(handle: ours.handle, reason: .remoteUserTerminatedConnection)), "\(state.events)")
            #expect(disconnected?["by"] as? String == "us")
        }
    }
}
