import BLE
import BLEWorld
import SimulatedTesting
import Synchronization
import Testing

@Suite("Connection establishment: a CONNECT_IND the peer never hears", .simulated, .timeLimit(.minutes(3)))
struct ConnectionEstablishmentTests {
    /// The central hears the advertiser, but the advertiser does not hear the central until
    /// the central's controller has given the first link up with Connection Failed to be
    /// Established (0x3E, Core 5.4, Vol 6, Part B, §4.5.2). `connect` must not hand that
    /// link to its caller: it connects again and returns a link the peer is on.
    @Test("a link that fails to be established (0x3E) is not returned: connect tries again and the link it returns works")
    func lostConnectIndication() async throws {
        let failures = Mutex(0)
        // Device 0 advertises; device 1 connects. Until the first 0x3E, 1 → 0 is deaf.
        let world = try await SharedWorld.make(devices: 2, observe: { _, packet, world in
            guard case let .event(raw) = packet, raw.eventCode == .disconnectionComplete,
                  case let .disconnectionComplete(done)? = try? HCI.Event(decoding: raw),
                  done.reason == .connectionFailedToBeEstablished else { return }
            failures.withLock { $0 += 1 }
            world.setLinkBlocked(false, from: world.devices[1], to: world.devices[0])
        })
        await world.runner.withWorld { $0.setLinkBlocked(true, from: $0.devices[1], to: $0.devices[0]) }
        let (peripheralDevice, centralDevice) = (world.devices[0], world.devices[1])
        _ = try await peripheralDevice.peripheral.advertise(name: "Deaf", interval: .milliseconds(20))
        let connection = try await centralDevice.central.connect(to: world.addresses[0], timeout: .seconds(patience))
        #expect(failures.withLock { $0 } == 1)
        #expect(connection.isConnected)
        #expect(connection.disconnectReason == nil)
        // The link carries data: RSSI is local, so ask the peer something (an L2CAP channel).
        await #expect(throws: BLEError.self) { _ = try await connection.openL2CAPChannel(psm: 0x0081) }
        #expect(connection.isConnected)
        try await connection.disconnect()
        await world.close()
    }

    @Test("a peer that never hears the central: connect gives up after three links with connectionFailed")
    func deafPeer() async throws {
        let failures = Mutex(0)
        let world = try await SharedWorld.make(devices: 2, observe: { _, packet, _ in
            guard case let .event(raw) = packet, raw.eventCode == .disconnectionComplete,
                  case let .disconnectionComplete(done)? = try? HCI.Event(decoding: raw),
                  done.reason == .connectionFailedToBeEstablished else { return }
            failures.withLock { $0 += 1 }
        })
        await world.runner.withWorld { $0.setLinkBlocked(true, from: $0.devices[1], to: $0.devices[0]) }
        let (peripheralDevice, centralDevice) = (world.devices[0], world.devices[1])
        _ = try await peripheralDevice.peripheral.advertise(name: "Deaf", interval: .milliseconds(20))
        await #expect {
            _ = try await centralDevice.central.connect(to: world.addresses[0], timeout: .seconds(patience))
        } throws: { error in
            guard case let BLEError.connectionFailed(why) = error else { return false }
            return why.contains("0x3E")
        }
        #expect(failures.withLock { $0 } == 3)
        await world.close()
    }
}
