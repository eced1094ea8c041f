import BLEController
import BLEWire
import BLEWorld
import Testing

/// A world replays exactly from its seed: every device's HCI capture is byte-identical.
@Suite("Replaying a world from its seed")
struct WorldReplayTests {
    /// Advertising, active scanning, a connection with data and encryption, then a
    /// disconnect, among four devices; returns every device's btsnoop capture.
    static func run(seed: UInt64) throws -> [[UInt8]] {
        let hosted = HostedWorld(seed: seed, radio: RadioModel(shadowingSigmaDB: 3))
        let peripheral = hosted.add("peripheral", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: seed &+ 1)
        let central = hosted.add("central", at: Vector3(x: 2, y: 1), address: 0xF0_00_00_00_00_02, seed: seed &+ 2)
        let scanner = hosted.add("scanner", at: Vector3(x: -3, y: 4), address: 0xF0_00_00_00_00_03, seed: seed &+ 3)
        let beacon = hosted.add("beacon", at: Vector3(x: 5, y: -5), address: 0xF0_00_00_00_00_04, seed: seed &+ 4)
        hosted.advertise(peripheral, interval: 48, data: [0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18])
        hosted.advertise(beacon, type: .nonConnectableUndirected, interval: 160)
        hosted.scan(scanner, active: true, interval: 0x0030)
        hosted.world.run(until: hosted.world.now + 500_000)
        let handles = try #require(hosted.connect(central, to: peripheral, address: 0xF0_00_00_00_00_01, interval: 24))
        let frame = L2CAP.BasicFrame(channelIdentifier: .attributeProtocol, payload: [0x0A, 0x03, 0x00][...]).encoded()
        hosted.world.sendToController(.acl(HCI.ACLPacket(
            connectionHandle: handles.central, packetBoundary: .firstNonAutomaticallyFlushable, data: frame[...])), device: central)
        hosted.command(central, HCI.LEEnableEncryption(
            connectionHandle: handles.central, randomNumber: 1, encryptedDiversifier: 2, longTermKey: 0x1234))
        hosted.world.run(until: hosted.world.now + 200_000)
        hosted.command(peripheral, HCI.LELongTermKeyRequestReply(connectionHandle: handles.peripheral, longTermKey: 0x1234))
        hosted.world.run(until: hosted.world.now + 500_000)
        hosted.command(central, HCI.Disconnect(connectionHandle: handles.central, reason: .remoteUserTerminatedConnection))
        hosted.world.run(until: hosted.world.now + 1_000_000)
        return hosted.world.devices.map { hosted.world.snoop(of: $0) }
    }

    @Test("The same scenario and seed run twice give byte-identical captures for every device")
    func identicalCaptures() throws {
        let first = try Self.run(seed: 99)
        let second = try Self.run(seed: 99)
        #expect(first == second)
        #expect(first.allSatisfy { $0.count > 100 }, "every device's host and controller talked")
        let other = try Self.run(seed: 100)
        #expect(other != first, "another seed gives another run")
    }
}
