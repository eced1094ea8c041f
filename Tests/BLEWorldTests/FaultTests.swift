import BLEController
import BLEWire
import BLEWorld
import Testing

@Suite("World faults")
struct FaultTests {
    private func command(_ ocf: UInt16 = 0x0003) -> H4.Packet {
        .command(HCI.CommandPacket(opcode: HCI.Opcode(ogf: 0x03, ocf: ocf)))
    }

    @Test("A packet loss rate of 0.3 drops about 30 % of the packets on that link only")
    func packetLoss() {
        let world = World(configuration: WorldConfiguration(seed: 21))
        let beacon = world.addDevice(DeviceDescription(name: "b", position: .zero), controller: TestBeacon(tag: 1, interval: 5_000))
        let lossy = world.addDevice(DeviceDescription(name: "lossy", position: Vector3(x: 2, y: 0, z: 0)), controller: TestListener())
        let clean = world.addDevice(DeviceDescription(name: "clean", position: Vector3(x: 0, y: 2, z: 0)), controller: TestListener())
        world.setPacketLoss(0.3, between: lossy, and: beacon)
        let log = HostLog(world: world)
        world.run(until: 10_000_000)
        let fraction = Double(log.heard(by: lossy).count) / 2000
        print("packet loss 0.3: received fraction \(fraction)")
        #expect(abs(fraction - 0.7) < 0.03)
        #expect(world.statistics[lossy].losses + log.heard(by: lossy).count == 2000)
        #expect(log.heard(by: clean).count == 2000)
    }

    @Test("A blocked link lets nothing through until it is unblocked; other links are unaffected")
    func blockedLink() {
        let world = World(configuration: WorldConfiguration(seed: 22))
        let beacon = world.addDevice(DeviceDescription(name: "b", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000))
        let cut = world.addDevice(DeviceDescription(name: "cut", position: Vector3(x: 2, y: 0, z: 0)), controller: TestListener())
        let other = world.addDevice(DeviceDescription(name: "other", position: Vector3(x: 0, y: 2, z: 0)), controller: TestListener())
        world.schedule(at: 1_000_000) { $0.setLinkBlocked(true, between: beacon, and: cut) }
        world.schedule(at: 2_000_000) { $0.setLinkBlocked(false, between: cut, and: beacon) }
        let log = HostLog(world: world)
        world.run(until: 1_500_000)
        #expect(world.receivedPowerDBm(from: beacon, to: cut, txPowerDBm: 0) == nil)
        #expect(world.receivedPowerDBm(from: beacon, to: other, txPowerDBm: 0) != nil)
        world.run(until: 3_000_000)
        let times = log.heard(by: cut).map(\.time)
        #expect(times.count == 200)
        #expect(!times.contains { $0 > 1_000_288 && $0 < 2_000_000 })
        #expect(world.statistics[cut].blocked == 100)
        #expect(log.heard(by: other).count == 300)
    }

    @Test("A device switched off hears nothing and drops HCI; switched on it starts from a power cycle")
    func powerOff() {
        let world = World(configuration: WorldConfiguration(seed: 23))
        world.addDevice(DeviceDescription(name: "b", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000))
        let listener = world.addDevice(DeviceDescription(name: "l", position: Vector3(x: 2, y: 0, z: 0)), controller: TestListener())
        let log = HostLog(world: world)
        world.schedule(at: 1_000_000) { $0.setPowered(false, device: listener) }
        world.schedule(at: 1_500_000) { $0.sendToController(command(), device: listener) }
        world.schedule(at: 2_000_000) { $0.setPowered(true, device: listener) }
        world.schedule(at: 2_505_000) { $0.sendToController(command(), device: listener) }
        world.run(until: 1_200_000)
        #expect(!world.isPowered(listener))
        world.run(until: 3_000_000)
        let times = log.heard(by: listener).map(\.time)
        #expect(times.filter { $0 < 1_000_000 }.count == 100)
        #expect(!times.contains { $0 > 1_000_000 && $0 < 2_505_000 })
        #expect(times.filter { $0 >= 2_500_000 }.count == 49)
        // Only the command sent while powered was answered.
        #expect(log.otherEvents.count == 1)
        #expect(world.statistics[listener].hciToController == 1)
    }

    @Test("A power cycle silences a beacon until its host speaks to it again")
    func powerCycle() {
        let world = World(configuration: WorldConfiguration(seed: 24))
        let beacon = world.addDevice(DeviceDescription(name: "b", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000))
        let listener = world.addDevice(DeviceDescription(name: "l", position: Vector3(x: 2, y: 0, z: 0)), controller: TestListener())
        let log = HostLog(world: world)
        world.schedule(at: 1_000_000) { $0.powerCycle(beacon) }
        world.schedule(at: 1_500_000) { $0.sendToController(command(), device: beacon) }
        world.run(until: 2_000_000)
        let times = log.heard(by: listener).map(\.time)
        #expect(times.filter { $0 < 1_000_000 }.count == 100)
        #expect(!times.contains { $0 > 1_000_000 && $0 < 1_500_000 })
        #expect(times.filter { $0 >= 1_500_000 }.count == 50)
        // 100 before the cycle, 50 after the command, and the one starting at 2 s.
        #expect(world.statistics[beacon].transmissions == 151)
    }
}
