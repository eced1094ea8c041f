import BLEController
import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting
import Synchronization
import Testing

/// Two started hosts in an empty world, connected: `central` to `peripheral`.
struct ConnectedHosts {
    let running: RunningWorld
    let peripheral: Host
    let central: Host
    let centralHandle: UInt16
    let peripheralHandle: UInt16
    /// Each host's ``SingleThreadExecutor`` (peripheral, central), when made with them.
    let executors: [SingleThreadExecutor]
    /// Packets from the controllers the hosts handled on their executors' threads and off them.
    let incomingThreads: IncomingPacketThreads

    /// - Parameters:
    ///   - executors: give each host a ``SingleThreadExecutor`` of its own.
    ///   - claimsExtendedAdvertising: the controllers claim the extended family, which the hosts then use.
    static func make(speed: Double = 1, timing: String? = nil, inboxes: Bool = false,
                     executors withExecutors: Bool = false, claimsExtendedAdvertising: Bool = false) async throws -> ConnectedHosts {
        var scenario = Scenario(name: "empty").addingExternalDevices(2)
        if timing == "ideal" { scenario.timing = .ideal }
        let running = try RunningWorld(scenario, speed: speed, inboxes: inboxes, claimsExtendedAdvertising: claimsExtendedAdvertising)
        let executors = withExecutors ? [try SingleThreadExecutor(name: "peripheral"), try SingleThreadExecutor(name: "central")] : []
        let threads = IncomingPacketThreads()
        func host(_ index: Int) -> Host {
            let executor = executors.isEmpty ? nil : executors[index]
            return Host(transport: running.transports[index], configuration: .patient, onPacket: { record in
                guard !record.outgoing, let executor else { return }
                threads.count(onExecutor: executor.isCurrentThread)
            }, executor: executor)
        }
        let peripheral = host(0)
        let central = host(1)
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
                              centralHandle: link.handle, peripheralHandle: peripheralLink.handle,
                              executors: executors, incomingThreads: threads)
    }

    func close() async {
        await central.close()
        await peripheral.close()
        await running.stop()
        for executor in executors { executor.shutdown() }
    }
}

/// Counts the packets from the controller a host handled on its executor's thread and off it.
final class IncomingPacketThreads: Sendable {
    private let counts = Mutex((on: 0, off: 0))

    func count(onExecutor: Bool) {
        counts.withLock { if onExecutor { $0.on += 1 } else { $0.off += 1 } }
    }

    var snapshot: (on: Int, off: Int) { counts.withLock { $0 } }
}

@Suite("Host channels and link procedures over a simulated world", .simulated, .timeLimit(.minutes(3)))
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
        // The peripheral's host holds at most 32 unread SDUs; with 4 credits topped up at
        // half, a sender of 60 SDUs cannot finish until the reader reads.
        let finished = Mutex(false)
        let sender = Task {
            for index in 0..<60 { try await hosts.central.send([UInt8(index)], on: channel.id) }
            finished.withLock { $0 = true }
        }
        // Credits run out only when they are withheld (they are topped up at half otherwise).
        try await waitUntil(within: patience) { await hosts.peripheral.channelStatus(served.id)?.receiveCredits == 0 }
        #expect(!finished.withLock { $0 })
        let status = try #require(await hosts.central.channelStatus(channel.id))
        #expect(status.sendCredits == 0)
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
        // The central's host takes its own LE Connection Update Complete in its own turn.
        try await waitUntil(within: patience) { await hosts.central.connections.first?.parameters == applied }
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

extension HostChannelTests {
    @Test("one host is central of one link and peripheral of another at once, with a channel on each")
    func bothRolesAtOnce() async throws {
        let running = try RunningWorld(Scenario(name: "empty", timing: .ideal).addingExternalDevices(3), speed: 20)
        let hosts = running.transports.map { Host(transport: $0, configuration: .patient) }
        for host in hosts { _ = try await host.start() }
        let (left, middle, right) = (hosts[0], hosts[1], hosts[2])
        let psm: UInt16 = 0x0082
        // The middle host advertises and echoes; the left host connects to it; then the
        // middle host connects to the advertising right host, which echoes too.
        for server in [middle, right] {
            let incoming = await server.listen(psm: psm)
            Task {
                for await channel in incoming {
                    while let sdu = try await server.receive(on: channel.id) { try await server.send(sdu, on: channel.id) }
                }
            }
            try await server.startAdvertising(GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32))
        }
        let toMiddle = try await left.connect(GAPConnectRequest(peer: running.addresses[1], timeout: 60_000_000))
        let toRight = try await middle.connect(GAPConnectRequest(peer: running.addresses[2], timeout: 60_000_000))
        let middleRoles = await middle.connections.map(\.role).sorted { "\($0)" < "\($1)" }
        #expect(middleRoles == [.central, .peripheral])
        let first = try await left.openChannel(psm: psm, on: toMiddle.handle)
        let second = try await middle.openChannel(psm: psm, on: toRight.handle)
        for round in 0..<20 {
            let payload = [UInt8](repeating: UInt8(round), count: 100 + round)
            try await left.send(payload, on: first.id)
            try await middle.send(payload, on: second.id)
            #expect(try await left.receive(on: first.id) == payload)
            #expect(try await middle.receive(on: second.id) == payload)
        }
        for host in hosts { await host.close() }
        await running.stop()
    }
}
