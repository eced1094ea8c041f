import BLE
import SimulatedTesting
import Testing

@Suite("Publishing and refusing L2CAP channels", .simulated, .timeLimit(.minutes(3)))
struct ChannelTests {
    /// Two devices connected: the first advertised, the second connected to it.
    static func connected() async throws -> (SharedWorld, central: Connection, peripheral: Connection) {
        let world = try await SharedWorld.make(devices: 2)
        _ = try await world.devices[0].peripheral.advertise(interval: .milliseconds(20))
        let central = try await world.devices[1].central.connect(to: world.addresses[0], timeout: .seconds(patience))
        let peripheral = try await within {
            for await connection in world.devices[0].peripheral.connections { return connection }
            throw TimedOut()
        }
        return (world, central, peripheral)
    }

    @Test("a channel to a PSM nobody published is refused with SPSM not supported")
    func unpublishedIsRefused() async throws {
        let (world, central, _) = try await Self.connected()
        await #expect(throws: BLEError.channelRefused(.spsmNotSupported)) {
            _ = try await central.openL2CAPChannel(psm: 0x0085)
        }
        await world.close()
    }

    @Test("a PSM is published once; unpublishing ends the listener and refuses later channels")
    func publishOnce() async throws {
        let (world, central, _) = try await Self.connected()
        let peripheral = world.devices[0].peripheral
        let listener = try await peripheral.publishL2CAPChannel(psm: 0x0081)
        await #expect(throws: BLEError.alreadyPublished(psm: 0x0081)) {
            _ = try await peripheral.publishL2CAPChannel(psm: 0x0081)
        }
        let opened = try await central.openL2CAPChannel(psm: 0x0081, options: L2CAPChannelOptions(mtu: 100, mps: 50, credits: 2))
        let served = try await within {
            for await channel in listener { return channel }
            throw TimedOut()
        }
        #expect(served.psm == 0x0081)
        #expect(served.peerMTU == 100)
        #expect(opened.mtu == 100)
        await listener.unpublish()
        let ended = try await within {
            var leftover = 0
            for await _ in listener { leftover += 1 }
            return leftover
        }
        #expect(ended == 0)
        await #expect(throws: BLEError.channelRefused(.spsmNotSupported)) {
            _ = try await central.openL2CAPChannel(psm: 0x0081)
        }
        // Publishing again after unpublishing works.
        _ = try await peripheral.publishL2CAPChannel(psm: 0x0081)
        await world.close()
    }

    @Test("a channel's peer closing it ends the reader and makes sends throw closedByPeer")
    func peerCloses() async throws {
        let (world, central, _) = try await Self.connected()
        let listener = try await world.devices[0].peripheral.publishL2CAPChannel(psm: 0x0082)
        let opened = try await central.openL2CAPChannel(psm: 0x0082)
        let served = try await within {
            for await channel in listener { return channel }
            throw TimedOut()
        }
        try await opened.send([1, 2, 3])
        await served.close()
        let received = try await within {
            var received: [[UInt8]] = []
            for await sdu in opened.incoming { received.append(sdu) }
            return received
        }
        #expect(received.isEmpty)
        await #expect(throws: BLEError.channelClosed(.closedByPeer)) {
            try await opened.send([4])
        }
        await world.close()
    }

    @Test("invalid PSMs and channel options are refused before anything is sent")
    func invalidOptions() async throws {
        let (world, central, _) = try await Self.connected()
        await #expect(throws: BLEError.invalidParameters("an LE PSM must be 0x0001 to 0x00FF")) {
            _ = try await central.openL2CAPChannel(psm: 0x1001)
        }
        await #expect(throws: BLEError.invalidParameters("an L2CAP MTU must be 23 to 65535")) {
            _ = try await central.openL2CAPChannel(psm: 0x0080, options: L2CAPChannelOptions(mtu: 22))
        }
        await world.close()
    }
}
