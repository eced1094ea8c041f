import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Testing

/// Two started hosts in an empty world, connected: `central` to `peripheral`.
struct ConnectedHosts {
    let running: RunningWorld
    let peripheral: Host
    let central: Host
    let centralHandle: UInt16
    let peripheralHandle: UInt16

    static func make(speed: Double = 1, timing: String? = nil) async throws -> ConnectedHosts {
        var scenario = Scenario(name: "empty").addingExternalDevices(2)
        if timing == "ideal" { scenario.timing = .ideal }
        let running = try RunningWorld(scenario, speed: speed)
        let peripheral = Host(transport: running.transports[0], configuration: .patient)
        let central = Host(transport: running.transports[1], configuration: .patient)
        _ = try await peripheral.start()
        _ = try await central.start()
        let events = peripheral.events
        try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        let fast = HCI.LEConnectionParameters(connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0,
                                              supervisionTimeout: 200, minCELength: 0, maxCELength: 0)
        let link = try await central.connect(GAPConnectRequest(peer: running.addresses[0], parameters: fast, timeout: 60_000_000))
        let up = try await firstElement(of: events, within: patience) {
            if case .connected = $0 { return true } else { return false }
        }
        guard case let .connected(peripheralLink) = up else { throw TimedOut() }
        return ConnectedHosts(running: running, peripheral: peripheral, central: central,
                              centralHandle: link.handle, peripheralHandle: peripheralLink.handle)
    }

    func close() async {
        await central.close()
        await peripheral.close()
        await running.stop()
    }
}

@Suite("Host channels and link procedures over a simulated world")
struct HostChannelTests {
    @Test("an LE credit-based channel echoes SDUs of 1 to 2000 octets byte for byte")
    func creditBasedEcho() async throws {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal")
        let psm: UInt16 = 0x0080
        let incoming = await hosts.peripheral.listen(psm: psm, parameters: HostChannelParameters(mtu: 2048, mps: 247, initialCredits: 8))
        let echo = Task {
            for await channel in incoming {
                while let sdu = try await hosts.peripheral.receive(on: channel.id) {
                    try await hosts.peripheral.send(sdu, on: channel.id)
                }
            }
        }
        let channel = try await hosts.central.openChannel(psm: psm, on: hosts.centralHandle)
        #expect(channel.peerMTU == 2048)
        #expect(channel.peerMPS == 247)
        let sizes = [1, 2, 23, 246, 247, 248, 500, 1000, 1999, 2000]
        let sender = Task {
            for (index, size) in sizes.enumerated() {
                try await hosts.central.send((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) }, on: channel.id)
            }
        }
        for (index, size) in sizes.enumerated() {
            let back = try await hosts.central.receive(on: channel.id)
            #expect(back == (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) })
        }
        try await sender.value
        await hosts.central.closeChannel(channel.id)
        #expect(try await hosts.central.receive(on: channel.id) == nil)
        echo.cancel()
        await hosts.close()
    }

    @Test("a reader that stops reading stops the sender: credits wait for the app")
    func receiveBackPressure() async throws {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal")
        let incoming = await hosts.peripheral.listen(psm: 0x0081, parameters: HostChannelParameters(mtu: 100, mps: 100, initialCredits: 4))
        let channel = try await hosts.central.openChannel(psm: 0x0081, on: hosts.centralHandle)
        var iterator = incoming.makeAsyncIterator()
        let served = try #require(await iterator.next())
        // The peripheral's host holds at most 32 unread SDUs; with 4 credits topped up per
        // read, a sender of 60 SDUs is stopped until the reader reads.
        let sender = Task {
            for index in 0..<60 { try await hosts.central.send([UInt8(index)], on: channel.id) }
        }
        try await Task.sleep(for: .milliseconds(500))  // let the sender run into the limit
        let status = try #require(await hosts.central.channelStatus(channel.id))
        #expect(status.queuedSDUs > 0 || status.sendCredits == 0)
        #expect(!sender.isCancelled)
        for index in 0..<60 {
            #expect(try await hosts.peripheral.receive(on: served.id) == [UInt8(index)])
        }
        try await sender.value
        await hosts.close()
    }

    @Test("a peripheral's parameter request is accepted and applied by the central host")
    func peripheralRequestsParameters() async throws {
        let hosts = try await ConnectedHosts.make(speed: 20)
        let wanted = HCI.LEConnectionParameters(connectionIntervalMin: 24, connectionIntervalMax: 40, maxLatency: 2,
                                                supervisionTimeout: 400, minCELength: 0, maxCELength: 0)
        let applied = try await hosts.peripheral.updateConnectionParameters(hosts.peripheralHandle, to: wanted)
        #expect((24...40).contains(applied.interval))
        #expect(applied.latency == 2)
        #expect(applied.supervisionTimeout == 400)
        let seen = await hosts.central.connections.first?.parameters
        #expect(seen == applied)
        await hosts.close()
    }

    @Test("the central updates parameters itself; RSSI and PHY are read and set")
    func centralProcedures() async throws {
        let hosts = try await ConnectedHosts.make(speed: 20)
        let wanted = HCI.LEConnectionParameters(connectionIntervalMin: 16, connectionIntervalMax: 16, maxLatency: 0,
                                                supervisionTimeout: 300, minCELength: 0, maxCELength: 0)
        let applied = try await hosts.central.updateConnectionParameters(hosts.centralHandle, to: wanted)
        #expect(applied.interval == 16)
        let rssi = try await hosts.central.readRSSI(hosts.centralHandle)
        #expect(rssi < 0 && rssi > -100)
        let phys = try await hosts.central.setPHY(hosts.centralHandle, tx: [.le2M], rx: [.le2M])
        #expect(phys.tx == .le2M)
        await hosts.close()
    }

    @Test("a central host that rejects parameter requests makes the peripheral's call throw")
    func rejectedParameterRequest() async throws {
        let running = try RunningWorld(Scenario(name: "empty").addingExternalDevices(2), speed: 20)
        let peripheral = Host(transport: running.transports[0], configuration: .patient)
        let central = Host(transport: running.transports[1], configuration: .patient, parameterUpdates: .reject)
        _ = try await peripheral.start()
        _ = try await central.start()
        let events = peripheral.events
        try await peripheral.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        _ = try await central.connect(GAPConnectRequest(peer: running.addresses[0], timeout: 60_000_000))
        let up = try await firstElement(of: events, within: patience) {
            if case .connected = $0 { return true } else { return false }
        }
        guard case let .connected(link) = up else { throw TimedOut() }
        let wanted = HCI.LEConnectionParameters(connectionIntervalMin: 24, connectionIntervalMax: 40, maxLatency: 0,
                                                supervisionTimeout: 400, minCELength: 0, maxCELength: 0)
        await #expect(throws: HostError.parameterUpdateRejected) {
            try await peripheral.updateConnectionParameters(link.handle, to: wanted)
        }
        await central.close()
        await peripheral.close()
        await running.stop()
    }
}
