import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Testing

/// A peer sending to a host whose app stopped reading ``Host/gattEvents``: the host holds
/// ``Host/gattEventBacklog`` events, refuses the rest and counts them, and answers a request
/// its app can no longer see with Insufficient Resources (docs/limits.md).
@Suite("GATT events a peer sends to an app that stopped reading", .simulated, .serialized, .timeLimit(.minutes(20)))
struct GATTEventBacklogTests {
    static let serviceUUID = BluetoothUUID(0xFE20)
    static let streamUUID = BluetoothUUID(0xFE21)
    static let askedUUID = BluetoothUUID(0xFE22)
    static let services = [GATTServiceDefinition(uuid: serviceUUID, characteristics: [
        GATTCharacteristicDefinition(uuid: streamUUID, properties: [.read, .notify, .writeWithoutResponse],
                                     permissions: [.readable, .writeable], value: .stored([0, 0])),
        GATTCharacteristicDefinition(uuid: askedUUID, properties: [.read], permissions: .readable, value: .dynamic),
    ])]

    @Test("Past 4,096 unread events the host refuses and counts the rest, keeping the oldest in order; a request then gets Insufficient Resources")
    func backlogIsBounded() async throws {
        var scenario = Scenario(name: "empty").addingExternalDevices(2)
        scenario.timing = .ideal
        let running = try RunningWorld(scenario, speed: 20, capturesHCI: false)
        let peripheral = Host(transport: running.transports[0], configuration: .patient)
        let central = Host(transport: running.transports[1], configuration: .patient)
        _ = try await peripheral.start()
        _ = try await central.start()
        let database = try await peripheral.publishGATT(Self.services)
        let streamHandle = try #require(database.valueHandle(of: Self.streamUUID, inService: Self.serviceUUID))
        let askedHandle = try #require(database.valueHandle(of: Self.askedUUID, inService: Self.serviceUUID))
        let (served, servedOutput) = AsyncStream.makeStream(of: GAPConnection.self)
        let drains = [Task { for await _ in peripheral.securityEvents {} }, Task { for await _ in central.securityEvents {} },
                      Task { for await _ in peripheral.l2capEvents {} }, Task { for await _ in central.l2capEvents {} },
                      Task { for await _ in central.events {} },
                      Task { for await event in peripheral.events { if case let .connected(link) = event { servedOutput.yield(link) } } }]
        defer { for drain in drains { drain.cancel() } }
        try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        let fast = HCI.LEConnectionParameters(connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0,
                                              supervisionTimeout: 200, minCELength: 0, maxCELength: 0)
        let link = try await central.connect(GAPConnectRequest(peer: running.addresses[0], parameters: fast, timeout: 60_000_000))
        let peripheralLink = try await firstElement(of: served, within: patience) { _ in true }

        // The central's app reads nothing while the peripheral notifies 100 more values than it holds.
        let sent = Host.gattEventBacklog + 100
        for index in 0 ..< sent {
            try await peripheral.notify([UInt8(index & 0xFF), UInt8(index >> 8)], valueHandle: streamHandle, on: peripheralLink.handle)
        }
        try await waitUntil(within: patience) { await central.droppedGATTEvents >= 100 }
        var held: [HostGATTEvent] = []
        for await event in central.gattEvents {
            held.append(event)
            if held.count == Host.gattEventBacklog { break }
        }
        let values = held.compactMap { event -> Int? in
            guard case let .notification(_, _, value) = event, value.count == 2 else { return nil }
            return Int(value[0]) | Int(value[1]) << 8
        }
        // The oldest are kept, in order; every refused event is counted.
        #expect(values == Array(0 ..< values.count))
        #expect(await values.count + central.droppedGATTEvents == sent)
        #expect(values.count > Host.gattEventBacklog - 10)

        // The peripheral's app stops reading too; the central's Write Commands fill its backlog.
        for index in 0 ..< Host.gattEventBacklog + 10 {
            try await central.writeWithoutResponse([UInt8(index & 0xFF), 1], to: streamHandle, on: link.handle)
        }
        try await waitUntil(within: patience) { await peripheral.droppedGATTEvents >= 10 }
        // A read the peripheral's app would answer cannot reach it: the peer hears why at once.
        await #expect(throws: GATTClientError.att(.insufficientResources, handle: askedHandle)) {
            _ = try await central.gatt(.read(askedHandle), on: link.handle)
        }
        try await central.disconnect(link.handle)
        await central.close()
        await peripheral.close()
        await running.stop()
    }
}
