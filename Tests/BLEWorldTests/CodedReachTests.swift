import BLEController
import BLEWorld
import Foundation
import Testing

@Suite("LE Coded PHY on the world's radio")
struct CodedReachTests {
    /// The distance at which the mean received power of a 0 dBm packet on `phy` equals a
    /// −95 dBm (1M) receiver's sensitivity on that PHY, from the world's log-distance model:
    /// L₀ + 10·n·log10(d) = 0 − (−95 − gain), so d = 10^((95 + gain − L₀) / (10·n)).
    static func analyticReach(_ radio: RadioModel, phy: RadioPHY) -> Double {
        let budget = 95 + RadioModel.sensitivityGainDB(for: phy)
        return pow(10, (budget - radio.referenceLossDB) / (10 * radio.pathLossExponent))
    }

    @Test("Coded S=2 and S=8 are received 4 dB and 8 dB weaker than 1M (nRF52840: −95, −99, −103 dBm)")
    func sensitivityGains() {
        #expect(RadioModel.sensitivityGainDB(for: .le1M) == 0)
        #expect(RadioModel.sensitivityGainDB(for: .le2M) == 0)
        #expect(RadioModel.sensitivityDBm(-95, on: .leCoded(.s2)) == -99)
        #expect(RadioModel.sensitivityDBm(-95, on: .leCoded(.s8)) == -103)
    }

    @Test("A Coded S=8 beacon is heard just inside its analytic reach, 2.09 times 1M's, and not well outside it",
          arguments: [RadioModel(), RadioModel(pathLossExponent: 2)])
    func reachAtS8(radio: RadioModel) {
        let reach = Self.analyticReach(radio, phy: .leCoded(.s8))
        let oneMegabitReach = Self.analyticReach(radio, phy: .le1M)
        #expect(abs(reach / oneMegabitReach - pow(10, 8 / (10 * radio.pathLossExponent))) < 1e-9)
        let world = World(configuration: WorldConfiguration(seed: 34, radio: radio))
        let beacon = world.addDevice(DeviceDescription(name: "coded beacon", position: .zero),
                                     controller: TestBeacon(tag: 1, interval: 20_000, phy: .leCoded(.s8)))
        let inside = world.addDevice(DeviceDescription(name: "just inside", position: Vector3(x: reach * 0.98, y: 0, z: 0)),
                                     controller: TestListener(phy: .leCoded(.s8)))
        let outside = world.addDevice(DeviceDescription(name: "well outside", position: Vector3(x: reach * 1.2, y: 0, z: 0)),
                                      controller: TestListener(phy: .leCoded(.s8)))
        // Beyond 1M's reach, but within Coded's: only the Coded PHY gets there.
        let beyondOneMegabit = world.addDevice(
            DeviceDescription(name: "beyond 1M", position: Vector3(x: oneMegabitReach * 1.2, y: 0, z: 0)),
            controller: TestListener(phy: .leCoded(.s8)))
        let log = HostLog(world: world)
        world.run(until: 1_000_000)
        // The world's truth: the mean level at each listener against its Coded sensitivity.
        let insidePower = world.receivedPowerDBm(from: beacon, to: inside, txPowerDBm: 0) ?? 0
        let outsidePower = world.receivedPowerDBm(from: beacon, to: outside, txPowerDBm: 0) ?? 0
        #expect(insidePower >= -103 && insidePower < -95)
        #expect(outsidePower < -103)
        #expect(log.heard(by: inside).count == 50)
        #expect(log.heard(by: beyondOneMegabit).count == 50)
        #expect(log.heard(by: outside).isEmpty)
    }

    @Test("A Coded S=2 beacon reaches 1.45 times as far as 1M under the default model, less far than S=8")
    func reachAtS2() {
        let radio = RadioModel()
        let reach = Self.analyticReach(radio, phy: .leCoded(.s2))
        #expect(abs(reach / Self.analyticReach(radio, phy: .le1M) - pow(10, 4.0 / 25)) < 1e-9)
        let world = World(configuration: WorldConfiguration(seed: 35, radio: radio))
        world.addDevice(DeviceDescription(name: "coded beacon", position: .zero),
                        controller: TestBeacon(tag: 1, interval: 20_000, phy: .leCoded(.s2)))
        let inside = world.addDevice(DeviceDescription(name: "inside", position: Vector3(x: reach * 0.98, y: 0, z: 0)),
                                     controller: TestListener(phy: .leCoded(.s8)))
        let outside = world.addDevice(DeviceDescription(name: "outside", position: Vector3(x: reach * 1.1, y: 0, z: 0)),
                                      controller: TestListener(phy: .leCoded(.s8)))
        let log = HostLog(world: world)
        world.run(until: 1_000_000)
        #expect(log.heard(by: inside).count == 50)
        #expect(log.heard(by: outside).isEmpty)
    }

    @Test("Packets on one PHY are not decoded by a receiver on another, however close")
    func physDoNotMix() {
        let world = World(configuration: WorldConfiguration(seed: 36))
        world.addDevice(DeviceDescription(name: "1M beacon", position: .zero), controller: TestBeacon(tag: 1, interval: 20_000))
        world.addDevice(DeviceDescription(name: "coded beacon", position: Vector3(x: 0, y: 1, z: 0)),
                        controller: TestBeacon(tag: 2, interval: 20_000, firstAt: 5_000, phy: .leCoded(.s8)))
        let codedListener = world.addDevice(DeviceDescription(name: "coded", position: Vector3(x: 2, y: 0, z: 0)),
                                            controller: TestListener(phy: .leCoded(.s2)))
        let oneMegabitListener = world.addDevice(DeviceDescription(name: "1M", position: Vector3(x: -2, y: 0, z: 0)),
                                                 controller: TestListener())
        let log = HostLog(world: world)
        world.run(until: 1_000_000)
        #expect(log.heard(by: codedListener).map(\.tag) == Array(repeating: 2, count: 50))
        #expect(log.heard(by: oneMegabitListener).map(\.tag) == Array(repeating: 1, count: 50))
    }
}
