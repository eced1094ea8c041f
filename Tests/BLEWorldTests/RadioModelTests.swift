import BLEController
import BLEWorld
import Foundation
import Testing

@Suite("World radio model")
struct RadioModelTests {
    @Test("Mean RSSI with 4 dB shadowing follows 40 + 25·log10(d) within 1 dB at 1, 2, 5, 10, 20 and 40 m")
    func pathLoss() {
        let radio = RadioModel(shadowingSigmaDB: 4)
        let world = World(configuration: WorldConfiguration(seed: 2026, radio: radio))
        world.addDevice(DeviceDescription(name: "beacon", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000))
        let distances: [Double] = [1, 2, 5, 10, 20, 40]
        let listeners = distances.map { distance in
            world.addDevice(DeviceDescription(name: "at \(distance) m", position: Vector3(x: distance, y: 0, z: 0), sensitivityDBm: -130),
                            controller: TestListener())
        }
        let log = HostLog(world: world)
        world.run(until: 10_000_000)
        for (distance, listener) in zip(distances, listeners) {
            let expected = -defaultPathLoss(distance)
            #expect(world.receivedPowerDBm(from: world.devices[0], to: listener, txPowerDBm: 0).map { abs($0 - expected) < 1e-9 } == true)
            let heard = log.heard(by: listener)
            #expect(heard.count == 1000)
            let mean = log.meanRSSI(by: listener) ?? 0
            print("path loss at \(distance) m: mean RSSI \(String(format: "%.2f", mean)) dBm over \(heard.count) packets, model \(String(format: "%.2f", expected))")
            #expect(abs(mean - expected) < 1)
            // Shadowing really varies the level.
            #expect(Set(heard.map(\.rssi)).count > 5)
        }
    }

    @Test("Beyond sensitivity nothing is received")
    func sensitivity() {
        let world = World(configuration: WorldConfiguration(seed: 3))
        world.addDevice(DeviceDescription(name: "beacon", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000))
        // 40 + 25·log10(150) ≈ 94.4 dB: just inside −95 dBm; 200 m (97.5 dB) is beyond it.
        let near = world.addDevice(DeviceDescription(name: "near", position: Vector3(x: 150, y: 0, z: 0)), controller: TestListener())
        let far = world.addDevice(DeviceDescription(name: "far", position: Vector3(x: 200, y: 0, z: 0)), controller: TestListener())
        let log = HostLog(world: world)
        world.run(until: 1_000_000)
        #expect(log.heard(by: near).count == 100)
        #expect(log.heard(by: far).isEmpty)
        // 200 m is beyond the packets' reach (158.5 m without shadowing): they are not even offered.
        #expect(world.statistics[far].belowSensitivity == 0)
        #expect(log.heard(by: near).allSatisfy { $0.rssi == -94 })
    }

    @Test("A 20 dB obstacle on the line of sight lowers RSSI by 20 dB; one beside it changes nothing")
    func obstacle() {
        let world = World(configuration: WorldConfiguration(seed: 4))
        world.addDevice(DeviceDescription(name: "beacon", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000))
        let behindWall = world.addDevice(DeviceDescription(name: "behind", position: Vector3(x: 10, y: 0, z: 1)), controller: TestListener())
        let clear = world.addDevice(DeviceDescription(name: "clear", position: Vector3(x: 0, y: 10, z: 1)), controller: TestListener())
        let before = world.receivedPowerDBm(from: world.devices[0], to: behindWall, txPowerDBm: 0) ?? 0
        world.addObstacle(Obstacle(name: "wall", shape: .box(min: Vector3(x: 5, y: -2, z: -1), max: Vector3(x: 5.2, y: 2, z: 3)), lossDB: 20))
        world.addObstacle(Obstacle(name: "post", shape: .cylinder(base: Vector3(x: 3, y: 3, z: -1), radius: 0.5, height: 4), lossDB: 20))
        let after = world.receivedPowerDBm(from: world.devices[0], to: behindWall, txPowerDBm: 0) ?? 0
        #expect(abs((before - after) - 20) < 1e-9)
        let log = HostLog(world: world)
        world.run(until: 500_000)
        #expect(log.heard(by: behindWall).map(\.rssi) == Array(repeating: -85, count: 50))
        #expect(log.heard(by: clear).map(\.rssi) == Array(repeating: -65, count: 50))
    }

    @Test("A directional antenna is 20 dB stronger in front than behind, and the back level is its front-to-back ratio")
    func directional() {
        let world = World(configuration: WorldConfiguration(seed: 5))
        world.addDevice(DeviceDescription(name: "panel", position: .zero, headingDegrees: 0,
                                          antenna: .directional(beamwidthDegrees: 60, frontToBackDB: 20), antennaGainDBi: 6),
                        controller: TestBeacon(tag: 1, interval: 10_000))
        let front = world.addDevice(DeviceDescription(name: "front", position: Vector3(x: 10, y: 0, z: 0)), controller: TestListener())
        let back = world.addDevice(DeviceDescription(name: "back", position: Vector3(x: -10, y: 0, z: 0)), controller: TestListener())
        let side = world.addDevice(DeviceDescription(name: "30°", position: Vector3(x: 10 * cos(.pi / 6), y: 10 * sin(.pi / 6), z: 0)),
                                   controller: TestListener())
        let log = HostLog(world: world)
        world.run(until: 200_000)
        #expect(log.heard(by: front).first?.rssi == -59)   // 6 dBi − 65 dB
        #expect(log.heard(by: back).first?.rssi == -79)    // 6 − 20 − 65
        #expect(log.heard(by: side).first?.rssi == -62)    // 3 dB down at half the beamwidth
    }

    @Test("The per-device RSSI offset is added to what the receiver reports, not to what it can hear")
    func rssiOffset() {
        let world = World(configuration: WorldConfiguration(seed: 6))
        world.addDevice(DeviceDescription(name: "beacon", position: .zero), controller: TestBeacon(tag: 1, interval: 10_000))
        let plain = world.addDevice(DeviceDescription(name: "plain", position: Vector3(x: 10, y: 0, z: 0)), controller: TestListener())
        let hot = world.addDevice(DeviceDescription(name: "hot", position: Vector3(x: 0, y: 10, z: 0), rssiOffsetDB: 7.4),
                                  controller: TestListener())
        let log = HostLog(world: world)
        world.run(until: 100_000)
        #expect(log.heard(by: plain).map(\.rssi) == Array(repeating: -65, count: 10))
        #expect(log.heard(by: hot).map(\.rssi) == Array(repeating: -58, count: 10))
    }

    @Test("Reception happens when the last bit arrives, airtime after the start")
    func timing() {
        let world = World(configuration: WorldConfiguration(seed: 6, timing: .ideal))
        world.addDevice(DeviceDescription(name: "beacon", position: .zero), controller: TestBeacon(tag: 9, interval: 10_000, firstAt: 1_000))
        let listener = world.addDevice(DeviceDescription(name: "l", position: Vector3(x: 1, y: 0, z: 0)), controller: TestListener())
        let log = HostLog(world: world)
        world.run(until: 12_000)
        // 28-octet PDU on LE 1M: (1 + 4 + 28 + 3) × 8 = 288 µs.
        #expect(log.heard(by: listener).map(\.time) == [1_288, 11_288])
        #expect(log.heard(by: listener).first?.tag == 9)
    }
}
