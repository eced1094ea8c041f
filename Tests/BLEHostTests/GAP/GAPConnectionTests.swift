import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Testing

/// Connection establishment, termination and link procedures between real simulated
/// controllers (Core 5.4, Vol 3, Part C, §9.3; Vol 6, Part B, §5.1).
@Suite("GAP connections")
struct GAPConnectionTests {
    static let centralAddress: UInt64 = 0xA1A1_A1A1_0001
    static let peripheralAddress: UInt64 = 0xB2B2_B2B2_0002

    static func fastRequest(_ peer: UInt64, timeout: HostTime = 3_000_000) -> GAPConnectRequest {
        GAPConnectRequest(
            peer: BluetoothAddress(peer),
            parameters: HCI.LEConnectionParameters(connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0, supervisionTimeout: 200),
            timeout: timeout)
    }

    static let advertising = GAPAdvertisingParameters(intervalMin: 32, intervalMax: 32)

    /// A central and an advertising peripheral, connected; the two handles.
    static func connectedPair(restart: Bool = false) throws -> (GAPWorld, DeviceID, DeviceID, UInt16, UInt16) {
        let world = GAPWorld(seed: 3)
        let central = world.add("central", address: centralAddress, x: 0)
        let peripheral = world.add("peripheral", address: peripheralAddress, x: 1)
        world.ready()
        var parameters = advertising
        parameters.restartAfterDisconnection = restart
        try world.request(peripheral) { gap, now throws(GAPError) in try gap.startAdvertising(parameters, at: now) }
        try world.request(central) { gap, now throws(GAPError) in try gap.connect(fastRequest(peripheralAddress), at: now) }
        world.run(for: 3_000_000) { !world.connected(central).isEmpty && !world.connected(peripheral).isEmpty }
        let a = try #require(world.connected(central).first)
        let b = try #require(world.connected(peripheral).first)
        return (world, central, peripheral, a.handle, b.handle)
    }

    @Test("Connecting reports the link on both sides with their roles; advertising stops")
    func connect() throws {
        let (world, central, peripheral, a, b) = try Self.connectedPair()
        let up = try #require(world.gap(central).connection(a))
        #expect(up.role == .central)
        #expect(up.peer.value == Self.peripheralAddress)
        #expect(up.parameters.interval == 6)
        let down = try #require(world.gap(peripheral).connection(b))
        #expect(down.role == .peripheral)
        #expect(down.peer.value == Self.centralAddress)
        #expect(world.has(peripheral, .advertisingStopped(connectionHandle: b)))
        #expect(!world.gap(peripheral).isAdvertising)
        #expect(world.gap(central).connecting == nil)
    }

    @Test("Disconnecting reports the local-host reason here and the given reason at the peer")
    func disconnect() throws {
        let (world, central, peripheral, a, b) = try Self.connectedPair()
        try world.request(central) { gap, now throws(GAPError) in
            try gap.disconnect(a, reason: .remoteUserTerminatedConnection, at: now)
        }
        world.run(for: 2_000_000) { !world.disconnections(central).isEmpty && !world.disconnections(peripheral).isEmpty }
        #expect(world.disconnections(central).map(\.reason) == [.connectionTerminatedByLocalHost])
        #expect(world.disconnections(central).map(\.handle) == [a])
        #expect(world.disconnections(peripheral).map(\.reason) == [.remoteUserTerminatedConnection])
        #expect(world.disconnections(peripheral).map(\.handle) == [b])
        #expect(world.gap(central).connections.isEmpty)
        #expect(world.gap(peripheral).connections.isEmpty)
        #expect(throws: GAPError.unknownConnection(handle: a)) {
            try world.request(central) { gap, now throws(GAPError) in try gap.disconnect(a, at: now) }
        }
    }

    @Test("Advertising restarts after a connection made from it ends, when asked")
    func restartAdvertising() throws {
        let (world, central, peripheral, a, _) = try Self.connectedPair(restart: true)
        try world.request(central) { gap, now throws(GAPError) in try gap.disconnect(a, at: now) }
        world.run(for: 2_000_000) {
            !world.disconnections(central).isEmpty && world.recorded(peripheral).filter { $0 == .advertisingStarted }.count == 2
        }
        #expect(world.gap(peripheral).isAdvertising)
        #expect(world.recorded(peripheral).filter { $0 == .advertisingStarted }.count == 2)
        // The central can connect again.
        try world.request(central) { gap, now throws(GAPError) in try gap.connect(Self.fastRequest(Self.peripheralAddress), at: now) }
        world.run(for: 3_000_000) { world.connected(central).count == 2 }
        #expect(world.connected(central).count == 2)
    }

    @Test("A connection to nobody times out: cancelled in the controller and reported as a timeout")
    func connectTimeout() throws {
        let world = GAPWorld(seed: 5)
        let central = world.add("central", address: Self.centralAddress)
        world.ready()
        let start = world.world.now
        try world.request(central) { gap, now throws(GAPError) in
            try gap.connect(Self.fastRequest(0x0BAD_0BAD_0BAD, timeout: 500_000), at: now)
        }
        world.run(for: 2_000_000) { !world.connectionFailures(central).isEmpty }
        let failures = world.connectionFailures(central)
        #expect(failures.count == 1)
        #expect(failures.first?.peer.value == 0x0BAD_0BAD_0BAD)
        #expect(failures.first?.error == .timeout)
        #expect(world.world.now - start >= 500_000)
        #expect(world.gap(central).connecting == nil)
    }

    @Test("Cancelling a pending connection reports it cancelled; a queued one is dropped at once")
    func cancel() throws {
        let world = GAPWorld(seed: 5)
        let central = world.add("central", address: Self.centralAddress)
        world.ready()
        try world.request(central) { gap, now throws(GAPError) in try gap.connect(Self.fastRequest(0x0BAD_0000_0001), at: now) }
        try world.request(central) { gap, now throws(GAPError) in try gap.connect(Self.fastRequest(0x0BAD_0000_0002), at: now) }
        #expect(world.gap(central).queuedConnections.map(\.value) == [0x0BAD_0000_0002])
        #expect(throws: GAPError.alreadyConnecting(BluetoothAddress(0x0BAD_0000_0001))) {
            try world.request(central) { gap, now throws(GAPError) in try gap.connect(Self.fastRequest(0x0BAD_0000_0001), at: now) }
        }
        world.run(for: 100_000)
        try world.request(central) { gap, now throws(GAPError) in try gap.cancelConnect(to: BluetoothAddress(0x0BAD_0000_0002), at: now) }
        #expect(world.connectionFailures(central).map(\.error) == [.cancelled])
        try world.request(central) { gap, now throws(GAPError) in try gap.cancelConnect(to: BluetoothAddress(0x0BAD_0000_0001), at: now) }
        world.run(for: 500_000) { world.connectionFailures(central).count == 2 }
        #expect(world.connectionFailures(central).map(\.peer.value) == [0x0BAD_0000_0002, 0x0BAD_0000_0001])
        #expect(world.connectionFailures(central).map(\.error) == [.cancelled, .cancelled])
        #expect(world.gap(central).connecting == nil)
    }

    @Test("Two connects run one after the other, in the order asked")
    func queuedConnects() throws {
        let world = GAPWorld(seed: 9)
        let central = world.add("central", address: Self.centralAddress, x: 0)
        let first = world.add("first", address: 0xB2B2_0000_0001, x: 1)
        let second = world.add("second", address: 0xB2B2_0000_0002, x: -1)
        world.ready()
        for device in [first, second] {
            try world.request(device) { gap, now throws(GAPError) in try gap.startAdvertising(Self.advertising, at: now) }
        }
        try world.request(central) { gap, now throws(GAPError) in try gap.connect(Self.fastRequest(0xB2B2_0000_0002), at: now) }
        try world.request(central) { gap, now throws(GAPError) in try gap.connect(Self.fastRequest(0xB2B2_0000_0001), at: now) }
        #expect(world.gap(central).connecting?.value == 0xB2B2_0000_0002)
        world.run(for: 6_000_000) { world.connected(central).count == 2 }
        #expect(world.connected(central).map(\.peer.value) == [0xB2B2_0000_0002, 0xB2B2_0000_0001])
        #expect(world.connected(first).count == 1)
        #expect(world.connected(second).count == 1)
        #expect(world.gap(central).connections.count == 2)
    }

    // The second link (b as peripheral) drops with 0x3E in the controller today.
    @Test("A device is central of one link and peripheral of another at once")
    func bothRoles() throws {
        let world = GAPWorld(seed: 11)
        let a = world.add("a", address: 0xAAAA_0000_0001, x: 0)
        let b = world.add("b", address: 0xAAAA_0000_0002, x: 1)
        let c = world.add("c", address: 0xAAAA_0000_0003, x: 2)
        world.ready()
        try world.request(c) { gap, now throws(GAPError) in try gap.startAdvertising(Self.advertising, at: now) }
        try world.request(b) { gap, now throws(GAPError) in try gap.connect(Self.fastRequest(0xAAAA_0000_0003), at: now) }
        world.run(for: 3_000_000) { world.connected(b).count == 1 }
        try world.request(b) { gap, now throws(GAPError) in try gap.startAdvertising(Self.advertising, at: now) }
        try world.request(a) { gap, now throws(GAPError) in try gap.connect(Self.fastRequest(0xAAAA_0000_0002), at: now) }
        world.run(for: 3_000_000) { world.connected(b).count == 2 }
        #expect(world.gap(b).connections.map(\.role).sorted { $0.rawValue < $1.rawValue } == [.central, .peripheral])
        world.run(for: 2_000_000)
        #expect(world.gap(b).connections.count == 2)
        #expect(world.disconnections(b).isEmpty)
    }

    @Test("The central updates the connection parameters; both sides see the new ones")
    func parameterUpdate() throws {
        let (world, central, peripheral, a, b) = try Self.connectedPair()
        try world.request(central) { gap, now throws(GAPError) in
            try gap.updateConnectionParameters(a, HCI.LEConnectionParameters(
                connectionIntervalMin: 24, connectionIntervalMax: 24, maxLatency: 2, supervisionTimeout: 300), at: now)
        }
        let expected = GAPConnectionParameters(interval: 24, latency: 2, supervisionTimeout: 300)
        world.run(for: 3_000_000) {
            world.has(central, .connectionParametersUpdated(handle: a, expected))
                && world.has(peripheral, .connectionParametersUpdated(handle: b, expected))
        }
        #expect(world.has(central, .connectionParametersUpdated(handle: a, expected)))
        #expect(world.has(peripheral, .connectionParametersUpdated(handle: b, expected)))
        #expect(world.gap(peripheral).connection(b)?.parameters == expected)
        #expect(throws: GAPError.notCentral(handle: b)) {
            try world.request(peripheral) { gap, now throws(GAPError) in
                try gap.updateConnectionParameters(b, HCI.LEConnectionParameters(
                    connectionIntervalMin: 24, connectionIntervalMax: 24, maxLatency: 0, supervisionTimeout: 300), at: now)
            }
        }
    }

    @Test("Data length, PHY and RSSI requests complete with their events")
    func linkProcedures() throws {
        let (world, central, _, a, _) = try Self.connectedPair()
        try world.request(central) { gap, now throws(GAPError) in try gap.setDataLength(a, txOctets: 200, txTime: 1712, at: now) }
        try world.request(central) { gap, now throws(GAPError) in try gap.setPHY(a, tx: .le2M, rx: .le2M, at: now) }
        try world.request(central) { gap, now throws(GAPError) in try gap.readRSSI(a, at: now) }
        world.run(for: 3_000_000) {
            world.recorded(central).contains { if case .phyUpdated = $0 { true } else { false } }
                && world.recorded(central).contains { if case .rssi = $0 { true } else { false } }
        }
        let events = world.recorded(central)
        #expect(events.contains(.phyUpdated(handle: a, tx: .le2M, rx: .le2M)))
        #expect(world.gap(central).connection(a)?.txPHY == .le2M)
        #expect(events.contains { if case .rssi(a, _) = $0 { true } else { false } })
        #expect(!events.contains { if case .procedureFailed = $0 { true } else { false } })
        let length = events.compactMap { if case let .dataLengthChanged(_, length) = $0 { length } else { nil } }
        #expect(length.last?.maxTxOctets == 200)
    }
}
