@testable import BLEWorld
import BLEController
import Foundation
import Testing

@Suite("Packets offered within their reach")
struct ReachTests {
    /// A busy world with everything the reach bound must respect: shadowing and fading,
    /// antennas of several gains, sensitivities from −100 to −80 dBm, a wall and an obstacle
    /// with a negative loss, listeners on routes, one carried, one moved and one carried
    /// mid-run, and receivers hopping channels.
    ///
    /// With `wide`, the same on a district 3 km across without shadowing or fading and with
    /// four times the listeners, so that a packet's reach spans a few cells of the grid and
    /// the grid, not the list, finds the listeners.
    ///
    /// With `fading` false, shadowing alone: then most packets a receiver in reach locks onto
    /// are ruled out by their own draw there (``DrawReach``), not only a few.
    static func receptions(offeringOnlyWithinReach: Bool, wide: Bool = false, fading: Bool = true)
        -> (receptions: [WorldReception], statistics: WorldStatistics, filedCells: Int) {
        let radio = wide ? RadioModel() : RadioModel(shadowingSigmaDB: 3, fastFading: fading)
        let world = World(configuration: WorldConfiguration(seed: 31, radio: radio))
        world.offersOnlyWithinReach = offeringOnlyWithinReach
        var random = WorldRandom(seed: 7)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + WorldRandom.unit(random.next()) * (range.upperBound - range.lowerBound)
        }
        let half = wide ? 1500.0 : 400
        func point() -> Vector3 { Vector3(x: uniform(-half ... half), y: uniform(-half ... half), z: uniform(0 ... 4)) }
        for tag in 1 ... 40 {
            world.addDevice(DeviceDescription(name: "beacon \(tag)", position: point(), antennaGainDBi: uniform(-2 ... 3)),
                            controller: TestBeacon(tag: UInt32(tag), interval: Int64(uniform(20_000 ... 100_000)), channels: [37, 38, 39],
                                                   txPowerDBm: uniform(-20 ... 4), maximumDelay: 10_000, seed: UInt64(tag)))
        }
        var listeners: [DeviceID] = []
        for index in 0 ..< (wide ? 120 : 30) {
            let route = index % 3 == 0
                ? Route(waypoints: [Waypoint(position: point(), speed: 15), Waypoint(position: point(), speed: 15)], loops: true) : nil
            listeners.append(world.addDevice(
                DeviceDescription(name: "listener \(index)", position: point(), antennaGainDBi: uniform(0 ... 5),
                                  sensitivityDBm: uniform(-100 ... -80), route: route),
                controller: TestListener(rotation: index % 2 == 0 ? 30_000 : nil)))
        }
        world.addObstacle(Obstacle(name: "wall", shape: .box(min: Vector3(x: -10, y: -400, z: 0), max: Vector3(x: 10, y: 400, z: 10)), lossDB: 20))
        world.addObstacle(Obstacle(name: "lens", shape: .sphere(center: Vector3(x: 100, y: 100, z: 2), radius: 60), lossDB: -4))
        world.carry(listeners[1], by: listeners[0], offset: Vector3(x: 1, y: 0, z: 0))
        world.schedule(at: 1_500_000) { world in world.move(listeners[2], to: Vector3(x: 390, y: -390, z: 1)) }
        world.schedule(at: 2_500_000) { world in world.carry(listeners[4], by: listeners[3], offset: .zero) }
        var heard: [WorldReception] = []
        world.onReception = { heard.append($0) }
        world.run(until: 4_000_000)
        return (heard, world.statistics, world.listenerGrid.cells.count)
    }

    /// With fading and shadowing the reach culls a few receivers; with shadowing alone each
    /// packet's own draw (``DrawReach``) rules out most of what the reach lets through.
    @Test("Offering packets only within their reach, and within what each packet's own draw leaves of it, changes no reception, RSSI, collision or order",
          arguments: [true, false])
    func sameReceptions(fading: Bool) {
        let culled = Self.receptions(offeringOnlyWithinReach: true, fading: fading)
        let everyone = Self.receptions(offeringOnlyWithinReach: false, fading: fading)
        #expect(culled.receptions.count > 1000)
        #expect(culled.receptions == everyone.receptions)
        #expect(culled.statistics.collisions == everyone.statistics.collisions)
        #expect(culled.statistics.collisions > 0)
        // Packets out of reach were not offered, so fewer losses below sensitivity are counted.
        #expect(culled.statistics.belowSensitivity < everyone.statistics.belowSensitivity)
        if !fading {
            // Without fading the draw rules out most of what the reach alone lets through.
            #expect(culled.statistics.belowSensitivity * 4 < everyone.statistics.belowSensitivity)
        }
    }

    @Test("A packet's own draw never lifts it above what its drawn reach allows")
    func drawnReachIsSound() {
        for radio in [RadioModel(shadowingSigmaDB: 2), RadioModel(pathLossExponent: 3.5, shadowingSigmaDB: 6, fastFading: true)] {
            let largest = World.maximumVariationDB(radio)
            let table = DrawReach(radio: radio, maximumVariationDB: largest)
            #expect(table.applies)
            let fading = radio.fastFading ? 10 * log10(-log(WorldRandom.unit(0))) : 0
            // The variation the factor allows: the squared reach scales as 10^(2·ΔV / (10·n)).
            func allowed(_ factor: Double) -> Double { largest + 5 * radio.pathLossExponent * log10(factor) }
            var shrunk = 0
            var random = WorldRandom(seed: 3)
            // Random draws, and the bins' edges with the draws just either side of them.
            var draws: [(UInt64, UInt64)] = (0 ..< 50_000).map { _ in (random.next(), random.next()) }
            for edge in 0 ... 128 {
                let bits = UInt64(edge) << 57
                for first in [bits, bits &- 2048, bits &+ 2048] {
                    for column in 0 ... 32 { draws.append((first, UInt64(column) << 59)); draws.append((first, (UInt64(column) << 59) &- 2048)) }
                }
            }
            for (firstBits, secondBits) in draws {
                let shadowing = radio.shadowingSigmaDB * WorldRandom.gaussian(firstBits, secondBits)
                let factor = table.factor(first: WorldRandom.unit(firstBits), second: WorldRandom.unit(secondBits))
                #expect(factor <= table.factor(first: WorldRandom.unit(firstBits)))
                if factor < 1 { shrunk += 1 }
                #expect(shadowing + fading <= allowed(factor) + 1e-9,
                        "u₁ \(WorldRandom.unit(firstBits)), u₂ \(WorldRandom.unit(secondBits)): \(shadowing) dB")
            }
            #expect(shrunk > draws.count * 9 / 10)
        }
        #expect(!DrawReach(radio: RadioModel(), maximumVariationDB: 0).applies)
        #expect(!DrawReach(radio: RadioModel(fastFading: true), maximumVariationDB: 15.7).applies)
    }

    @Test("On a wide district the grid finds the listeners in reach, and the receptions are the same")
    func sameReceptionsThroughTheGrid() {
        let culled = Self.receptions(offeringOnlyWithinReach: true, wide: true)
        let everyone = Self.receptions(offeringOnlyWithinReach: false, wide: true)
        #expect(culled.receptions.count > 100)
        #expect(culled.receptions == everyone.receptions)
        #expect(culled.filedCells > 4)
        #expect(culled.statistics.belowSensitivity < everyone.statistics.belowSensitivity)
    }

    @Test("The largest variation is the generator's extreme: 8.65 σ of shadowing and 15.7 dB of Rayleigh fading")
    func largestVariation() {
        let shadowing = World.maximumVariationDB(RadioModel(shadowingSigmaDB: 1))
        #expect(abs(shadowing - 8.652) < 0.001)
        // The extreme is reached: the smallest uniform, and a cosine of 1.
        #expect(abs(WorldRandom.gaussian(0, 0) - shadowing) < 1e-6)
        let fading = World.maximumVariationDB(RadioModel(fastFading: true))
        #expect(abs(fading - 10 * log10(-log(WorldRandom.unit(0)))) < 1e-12)
        #expect(abs(fading - 15.73) < 0.01)
        #expect(World.maximumVariationDB(RadioModel()) == 0)
    }

    @Test("Reach is the free-path distance of the budget: 158.5 m for 0 dBm to −95 dBm at 40 + 25·log10(d)")
    func reachDistance() throws {
        let world = World(configuration: WorldConfiguration(seed: 1))
        world.addDevice(DeviceDescription(name: "listener", position: .zero), controller: TestListener())
        let reach = try #require(world.reach(txPowerDBm: 0, senderGainDBi: 0))
        #expect(abs(reach.metres - pow(10, (55 + World.reachRoundingDB) / 25)) < 1e-9)
        #expect(abs(reach.metres - 158.5) < 0.1)
        let ideal = World(configuration: WorldConfiguration(seed: 1, timing: .ideal))
        #expect(ideal.reach(txPowerDBm: 0, senderGainDBi: 0) == nil)
        let flat = World(configuration: WorldConfiguration(seed: 1, radio: RadioModel(pathLossExponent: 0)))
        #expect(flat.reach(txPowerDBm: 0, senderGainDBi: 0) == nil)
    }

    @Test("A packet judged surely below sensitivity without the full draw is one the full draw loses")
    func surelyBelowIsSound() {
        let world = World(configuration: WorldConfiguration(seed: 11, radio: RadioModel(shadowingSigmaDB: 2)))
        var judged = 0, lost = 0
        for serial in UInt64(0) ..< 20_000 {
            let receiver = Int(serial % 37)
            let mean = -95 - Double(serial % 300) / 10
            let variation = world.randomVariationDB(serial: serial, receiver: receiver)
            if mean + variation < -95 { lost += 1 }
            guard world.isSurelyBelow(-95, meanPowerDBm: mean, serial: serial, receiver: receiver) else { continue }
            judged += 1
            #expect(mean + variation < -95, "serial \(serial): mean \(mean) dBm + \(variation) dB")
        }
        // Most packets more than a few σ short are settled without the logarithm and cosine.
        #expect(judged > lost / 2)
        let fading = World(configuration: WorldConfiguration(seed: 11, radio: RadioModel(shadowingSigmaDB: 2, fastFading: true)))
        #expect(!fading.isSurelyBelow(-95, meanPowerDBm: -200, serial: 1, receiver: 1))
        #expect(!world.isSurelyBelow(-95, meanPowerDBm: .nan, serial: 1, receiver: 1))
    }
}
