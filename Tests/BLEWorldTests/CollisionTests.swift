import BLEController
import BLEWorld
import Testing

@Suite("World collisions")
struct CollisionTests {
    /// Two beacons 5 m either side of a listener, sending at the same moments.
    private func twoBeacons(secondTxPowerDBm: Double, timing: TimingMode = .realistic, secondChannel: UInt8 = 37)
        -> (World, HostLog, DeviceID) {
        let world = World(configuration: WorldConfiguration(seed: 11, timing: timing))
        world.addDevice(DeviceDescription(name: "a", position: Vector3(x: -5, y: 0, z: 0)),
                        controller: TestBeacon(tag: 0xA, interval: 10_000, firstAt: 1_000))
        world.addDevice(DeviceDescription(name: "b", position: Vector3(x: 5, y: 0, z: 0)),
                        controller: TestBeacon(tag: 0xB, interval: 10_000, firstAt: 1_100, channels: [secondChannel],
                                               txPowerDBm: secondTxPowerDBm))
        let listener = world.addDevice(DeviceDescription(name: "l", position: .zero), controller: TestListener())
        let log = HostLog(world: world)
        world.run(until: 1_000_000)
        return (world, log, listener)
    }

    @Test("Two overlapping equal-power packets on one channel are both lost at a receiver between them")
    func equalPower() {
        let (world, log, listener) = twoBeacons(secondTxPowerDBm: 0)
        #expect(log.heard(by: listener).isEmpty)
        #expect(world.statistics[listener].collisions == 200)
        #expect(world.statistics.transmissions == 200)
    }

    @Test("A packet 10 dB stronger than the one it overlaps survives (capture); the weaker is lost")
    func capture() {
        let (world, log, listener) = twoBeacons(secondTxPowerDBm: 10)
        let heard = log.heard(by: listener)
        #expect(heard.count == 100)
        #expect(heard.allSatisfy { $0.tag == 0xB && $0.rssi == -47 })
        #expect(world.statistics[listener].collisions == 100)
    }

    @Test("Overlapping packets on different channels do not collide")
    func otherChannel() {
        let (world, log, listener) = twoBeacons(secondTxPowerDBm: 0, secondChannel: 38)
        #expect(log.heard(by: listener).count == 100)
        #expect(log.heard(by: listener).allSatisfy { $0.tag == 0xA })
        #expect(world.statistics[listener].collisions == 0)
    }

    @Test("In the ideal mode overlapping packets are both delivered")
    func ideal() {
        let (world, log, listener) = twoBeacons(secondTxPowerDBm: 0, timing: .ideal)
        #expect(log.heard(by: listener).count == 200)
        #expect(world.statistics.collisions == 0)
    }

    @Test("Half duplex: a device transmitting while a packet arrives does not receive it")
    func halfDuplex() {
        let world = World(configuration: WorldConfiguration(seed: 12))
        world.addDevice(DeviceDescription(name: "beacon", position: .zero),
                        controller: TestBeacon(tag: 1, interval: 10_000, firstAt: 5_000))
        let busy = world.addDevice(DeviceDescription(name: "busy", position: Vector3(x: 3, y: 0, z: 0)),
                                   controller: TestBeacon(tag: 2, interval: 10_000, firstAt: 5_100, channels: [38], listens: true))
        let idle = world.addDevice(DeviceDescription(name: "idle", position: Vector3(x: 0, y: 3, z: 0)),
                                   controller: TestBeacon(tag: 3, interval: 10_000, firstAt: 60_000_000, listens: true))
        world.run(until: 1_000_000)
        #expect(world.statistics[busy].receptions == 0)
        #expect(world.statistics[busy].halfDuplex == 100)
        #expect(world.statistics[idle].receptions == 100)
    }
}
