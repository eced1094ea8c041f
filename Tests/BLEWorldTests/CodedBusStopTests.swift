import BLEController
import BLEWorld
import Foundation
import Testing

/// The bus stop of Scenarios/bus-stop.yaml with its stop beacon on LE Coded S=8: the same
/// pole, beacon front end and radio model, listeners standing where its walkers walk, each
/// reception judged against the world's own link budget.
@Suite("The bus stop's beacon on LE Coded")
struct CodedBusStopTests {
    /// Metres south (negative y) and north of the pole where a listener stands, phone high.
    static let south: [Double] = Array(stride(from: 10.0, through: 130, by: 2))
    static let north: [Double] = [1, 1.5, 2, 3, 5, 10, 20, 40]

    /// The bus stop's world, its stop beacon sending on `phy`, and listeners on `phy` south
    /// and north of the pole; returns the farthest south distance heard and the north
    /// distances heard, with the world's mean level at each.
    static func run(phy: RadioPHY) throws -> (farthestSouth: Double?, northHeard: [Double], truth: [Double: Double]) {
        let path = BundledScenarioDigestTests.folder.appendingPathComponent("bus-stop.yaml").path
        let scenario = try ScenarioLoader.load(path: path)
        let stop = try #require(scenario.devices.first { $0.name == "stop beacon" })
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, radio: scenario.radio))
        for obstacle in scenario.obstacles { world.addObstacle(obstacle) }
        let beacon = world.addDevice(stop.description, controller: TestBeacon(tag: 1, interval: 100_000, txPowerDBm: stop.txPowerDBm, phy: phy))
        var listeners: [(distance: Double, id: DeviceID)] = []
        for distance in south {
            listeners.append((-distance, world.addDevice(DeviceDescription(name: "south \(distance)", position: Vector3(x: 0, y: -distance, z: 1.2)),
                                                         controller: TestListener(phy: phy))))
        }
        for distance in north {
            listeners.append((distance, world.addDevice(DeviceDescription(name: "north \(distance)", position: Vector3(x: 0, y: distance, z: 1.2)),
                                                        controller: TestListener(phy: phy))))
        }
        let log = HostLog(world: world)
        world.run(until: 1_000_000)
        var truth: [Double: Double] = [:]
        let sensitivity = RadioModel.sensitivityDBm(-95, on: phy)
        for (distance, id) in listeners {
            let power = world.receivedPowerDBm(from: beacon, to: id, txPowerDBm: stop.txPowerDBm) ?? -.infinity
            truth[distance] = power
            // Without shadowing, heard exactly where the world's mean level reaches the sensitivity.
            #expect(log.heard(by: id).isEmpty == (power < sensitivity), "\(distance) m: \(power) dBm")
        }
        let heard = listeners.filter { !log.heard(by: $0.id).isEmpty }.map(\.distance)
        return (heard.filter { $0 < 0 }.map { -$0 }.max(), heard.filter { $0 > 0 }, truth)
    }

    @Test("On LE Coded S=8 the stop beacon is heard to 108 m south (109.7 m by the budget) instead of 52 m, and behind the pole only within 2 m")
    func furtherSouth() throws {
        let oneMegabit = try Self.run(phy: .le1M)
        let coded = try Self.run(phy: .leCoded(.s8))
        print("bus stop south reach: LE 1M \(oneMegabit.farthestSouth ?? 0) m, LE Coded S=8 \(coded.farthestSouth ?? 0) m; "
              + "north heard on Coded at \(coded.northHeard) m (level at 1 m north \(coded.truth[1] ?? 0) dBm)")
        // 1M: −12 dBm − (40 + 25·log10 d) ≥ −95 to d ≈ 52 m (the scenario's own figure); S=8 adds 8 dB, ×2.09.
        #expect(oneMegabit.farthestSouth == 52)
        #expect(coded.farthestSouth == 108)
        #expect(oneMegabit.northHeard.isEmpty)
        // Behind the pole the budget is 45 dB smaller: 1M never hears it; S=8's 8 dB reach 1.7 m.
        #expect(coded.northHeard.allSatisfy { $0 < 2 })
        #expect(!coded.northHeard.contains(2))
    }
}
