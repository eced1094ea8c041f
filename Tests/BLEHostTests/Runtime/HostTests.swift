import BLEController
import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Synchronization
import Testing

/// The wall-clock seconds a test waits for what should take milliseconds: the whole suite
/// runs in parallel on few cores, and only a failing test ever waits this long.
let patience: Double = 60

extension HCIDriverConfiguration {
    /// A command timeout far above any scheduling delay of a loaded test machine, so only a
    /// controller that really never answers times out.
    static let patient = HCIDriverConfiguration(commandTimeout: 60_000_000)
}

@Suite("Host runtime over a simulated world", .simulated, .timeLimit(.minutes(3)))
struct HostTests {
    @Test("start brings the controller up and reports its public address")
    func startReportsAddress() async throws {
        let running = try RunningWorld(Scenario.builtIn(named: "neighbourhood"))
        let host = Host(transport: running.transports[0], configuration: .patient)
        let info = try await host.start()
        #expect(info.address == running.addresses[0])
        #expect(info.address == BluetoothAddress(0xF0_5B_1E_00_00_00))
        #expect(info.totalNumLEACLDataPackets > 0)
        await host.close()
        await running.stop()
    }

    @Test("scanning the neighbourhood finds the heart-rate strap by name and service")
    func scanFindsStrap() async throws {
        let running = try RunningWorld(Scenario.builtIn(named: "neighbourhood"))
        let host = Host(transport: running.transports[0], configuration: .patient)
        _ = try await host.start()
        let advertisements = try await host.startScanning(GAPScanParameters(active: true))
        // GAP reports a device again only when its data changes, so wait once, for the
        // report that carries the name.
        let named = try await firstElement(of: advertisements, within: patience) {
            $0.address.value == 0xC4_7A_1B_2C_3D_4E && $0.data.localName != nil
        }
        #expect(named.addressType == .random)
        #expect(named.connectable)
        #expect(named.data.serviceUUIDs?.contains(BluetoothUUID(0x180D)) == true)
        #expect(named.data.localName == "Polar H10 A1B2C3D4")
        try await host.stopScanning()
        await host.close()
        await running.stop()
    }

    @Test("what one host advertises is seen by a second host in the same world")
    func advertisingIsSeenByAnotherHost() async throws {
        let running = try RunningWorld(Scenario(name: "empty").addingExternalDevices(2))
        let advertiser = Host(transport: running.transports[0], configuration: .patient)
        let scanner = Host(transport: running.transports[1], configuration: .patient)
        _ = try await advertiser.start()
        _ = try await scanner.start()
        try await advertiser.startAdvertising(GAPAdvertisingParameters(
            data: AdvertisingData([.flags([.leGeneralDiscoverable]), .completeLocalName("Runtime Test")])))
        let advertisements = try await scanner.startScanning(GAPScanParameters(active: false))
        let seen = try await firstElement(of: advertisements, within: patience) { $0.address == running.addresses[0] }
        #expect(seen.data.localName == "Runtime Test")
        #expect(seen.connectable)
        try await scanner.stopScanning()
        try await advertiser.stopAdvertising()
        await scanner.close()
        await advertiser.close()
        await running.stop()
    }

    @Test("a central connects to an advertising host and both see the link go up and down")
    func connectAndDisconnect() async throws {
        let running = try RunningWorld(Scenario(name: "empty").addingExternalDevices(2))
        let peripheral = Host(transport: running.transports[0], configuration: .patient)
        let central = Host(transport: running.transports[1], configuration: .patient)
        _ = try await peripheral.start()
        _ = try await central.start()
        try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        let link = try await central.connect(GAPConnectRequest(peer: running.addresses[0], timeout: 60_000_000))
        #expect(link.role == .central)
        #expect(link.peer == running.addresses[0])
        #expect(await central.connections.map(\.handle) == [link.handle])
        let events = peripheral.events
        let up = try await firstElement(of: events, within: patience) {
            if case .connected = $0 { return true } else { return false }
        }
        guard case let .connected(peripheralLink) = up else { throw TimedOut() }
        #expect(peripheralLink.role == .peripheral)
        #expect(peripheralLink.peer == running.addresses[1])
        // Exchange MTU (Vol 3, Part F, §3.4.2) crosses the link on the ATT channel and the
        // peripheral's bearer answers it.
        let mtuEvents = peripheral.gattEvents
        guard case let .mtu(mtu) = try await central.gatt(.exchangeMTU, on: link.handle) else { throw TimedOut() }
        #expect(mtu == 517)
        let changed = try await firstElement(of: mtuEvents, within: patience) {
            if case .mtuChanged = $0 { return true } else { return false }
        }
        #expect(changed == .mtuChanged(connection: peripheralLink.handle, mtu: 517))
        try await central.disconnect(link.handle)
        #expect(await central.connections.isEmpty)
        let down = try await firstElement(of: events, within: patience) {
            if case .disconnected = $0 { return true } else { return false }
        }
        #expect(down == .disconnected(handle: peripheralLink.handle, reason: .remoteUserTerminatedConnection))
        await central.close()
        await peripheral.close()
        await running.stop()
    }

    @Test("every packet passes the snoop hook in both directions, in time order")
    func snoopSeesBothDirections() async throws {
        let running = try RunningWorld(Scenario(name: "empty").addingExternalDevices(1))
        let records = Mutex<[HostPacketRecord]>([])
        let host = Host(transport: running.transports[0], configuration: .patient) { record in records.withLock { $0.append(record) } }
        _ = try await host.start()
        let seen = records.withLock { $0 }
        let first = try #require(seen.first)
        #expect(first.outgoing)
        guard case let .command(reset) = first.packet else { throw TimedOut() }
        #expect(reset.opcode == HCI.Opcode(rawValue: 0x0C03))
        #expect(seen.contains { !$0.outgoing })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.time <= $1.time })
        await host.close()
        await running.stop()
    }

    @Test("a transport that closes before the controller sent anything fails start saying the controller may have another host")
    func closedTransportFailsStart() async throws {
        let (packets, input) = AsyncThrowingStream.makeStream(of: H4.Packet.self)
        input.finish()
        let host = Host(transport: ClosedTransport(packets: packets))
        let refused = HostError.transportClosed("the controller's side closed before the controller sent anything: it may already have "
                                                + "a host attached (a served controller takes one host at a time; close the other first)")
        await #expect(throws: refused) {
            _ = try await host.start()
        }
        await #expect(throws: refused) {
            _ = try await host.startScanning()
        }
    }
}

extension HostTests {
    @Test("a controller that never answers fails start when the timer fires the command timeout")
    func silentControllerTimesOut() async throws {
        let (packets, input) = AsyncThrowingStream.makeStream(of: H4.Packet.self)
        let host = Host(transport: ClosedTransport(packets: packets), configuration: HCIDriverConfiguration(commandTimeout: 50_000))
        await #expect(throws: HostError.startupFailed(.timeout(HCI.Opcode(rawValue: 0x0C03)))) {
            _ = try await host.start()
        }
        #expect(await host.counters.commandTimeouts == 1)
        input.finish()
        await host.close()
    }

    @Test("a host closed while a command waits for its answer fires no timeout afterwards")
    func closedHostKeepsNoTimer() async throws {
        let (packets, input) = AsyncThrowingStream.makeStream(of: H4.Packet.self)
        let host = Host(transport: ClosedTransport(packets: packets), configuration: HCIDriverConfiguration(commandTimeout: 50_000))
        let starting = Task { try await host.start() }
        // Reset goes out and waits; the host closes before its 50 ms timeout.
        try await host.clock.sleep(for: .milliseconds(10))
        await host.close()
        await #expect(throws: HostError.self) { _ = try await starting.value }
        // Well past the timeout: a timer left armed would have failed Reset by now.
        try await host.clock.sleep(for: .milliseconds(200))
        #expect(await host.counters.commandTimeouts == 0)
        input.finish()
    }
}

/// A transport whose controller side has already gone (or never speaks).
struct ClosedTransport: HostTransport {
    let packets: AsyncThrowingStream<H4.Packet, any Error>
    func send(_ packet: H4.Packet) async throws {}
}
