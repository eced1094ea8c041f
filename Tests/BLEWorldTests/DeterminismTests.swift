import BLEController
import BLEWire
import BLEWorld
import Testing

@Suite("World determinism")
struct DeterminismTests {
    /// A busy world: 20 beacons with advDelay, shadowing and fading, packet loss, an
    /// obstacle, a moving beacon, a channel-hopping listener whose host sends a command
    /// every 100 ms. Returns the listener's snoop and the statistics.
    private func run(seed: UInt64) -> ([UInt8], WorldStatistics, Int) {
        let world = World(configuration: WorldConfiguration(seed: seed, radio: RadioModel(shadowingSigmaDB: 6, fastFading: true)))
        var placement = WorldRandom(seed: seed)
        for tag in 0..<20 {
            let x = Double(placement.next() % 4000) / 100 - 20
            let y = Double(placement.next() % 4000) / 100 - 20
            world.addDevice(DeviceDescription(name: "beacon \(tag)", position: Vector3(x: x, y: y, z: 1)),
                            controller: TestBeacon(tag: UInt32(tag), interval: 20_000, channels: [37, 38, 39],
                                                   maximumDelay: 10_000, seed: placement.next()))
        }
        let route = Route(waypoints: [Waypoint(position: Vector3(x: 30, y: 0, z: 1), speed: 10),
                                      Waypoint(position: Vector3(x: -30, y: 0, z: 1), speed: 10)], loops: true)
        world.addDevice(DeviceDescription(name: "bus", position: Vector3(x: -30, y: 0, z: 1), route: route),
                        controller: TestBeacon(tag: 99, interval: 20_000, channels: [37, 38, 39], maximumDelay: 10_000, seed: 5))
        world.addObstacle(Obstacle(name: "wall", shape: .box(min: Vector3(x: 3, y: -10, z: 0), max: Vector3(x: 3.3, y: 10, z: 3)), lossDB: 15))
        let listener = world.addDevice(DeviceDescription(name: "scanner", position: .zero), controller: TestListener(rotation: 30_000))
        world.setPacketLoss(0.2, between: listener, and: world.devices[3])
        for step in 1...30 {
            world.schedule(at: Microseconds(step) * 100_000) { world in
                world.sendToController(.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x200B))), device: listener)
            }
        }
        var heard = 0
        world.onHostPacket = { _, packet in
            if case let .event(event) = packet, event.eventCode == .vendorSpecific { heard += 1 }
        }
        world.run(until: 3_000_000)
        return (world.snoop(of: listener), world.statistics, heard)
    }

    @Test("The same world and seed run twice give byte-identical snoops and identical statistics")
    func sameSeed() throws {
        let (snoopA, statisticsA, heardA) = run(seed: 42)
        let (snoopB, statisticsB, heardB) = run(seed: 42)
        #expect(snoopA == snoopB)
        #expect(statisticsA == statisticsB)
        #expect(heardA == heardB)
        print("determinism: \(statisticsA.transmissions) transmissions, \(heardA) heard, \(statisticsA.collisions) collisions, snoop \(snoopA.count) octets")
        #expect(heardA > 100)
        #expect(statisticsA.collisions > 0)
        #expect(statisticsA.losses > 0)

        var reader = try BTSnoop.Reader(snoopA)
        #expect(reader.header.datalink == .hciUART)
        let records = try reader.readAll()
        #expect(records.count == 30 + 30 + heardA)
        let epoch: Int64 = 1_767_225_600_000_000
        #expect(records.first?.unixMicroseconds ?? 0 >= epoch)
        #expect(records.last?.unixMicroseconds ?? 0 <= epoch + 3_000_000)
        let commands = records.filter { $0.direction == .sent }
        #expect(commands.count == 30)
        #expect(commands.first?.unixMicroseconds == epoch + 100_000)
    }

    @Test("A different seed gives a different run")
    func otherSeed() {
        let (snoopA, statisticsA, _) = run(seed: 42)
        let (snoopB, statisticsB, _) = run(seed: 43)
        #expect(snoopA != snoopB)
        #expect(statisticsA != statisticsB)
    }
}
