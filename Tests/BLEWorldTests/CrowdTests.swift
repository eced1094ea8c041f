import BLEController
import BLEWorld
import Foundation
import Testing

@Suite("World crowds")
struct CrowdTests {
    /// `count` beacons advertising every 100 ms (+0–10 ms advDelay) on 37, 38 and 39 at
    /// seeded random positions within 30 m of a listener that moves round the three
    /// channels every 100 ms. Returns the fraction of the packets sent on the listener's
    /// channel that it received, and simulated seconds per wall-clock second.
    private func crowd(_ count: Int, seconds: Int) -> (fraction: Double, speed: Double, transmissions: Int) {
        let world = World(configuration: WorldConfiguration(seed: 1000 + UInt64(count), capturesHCI: false))
        var placement = WorldRandom(seed: UInt64(count))
        for tag in 0..<count {
            let radius = 30 * WorldRandom.unit(placement.next()).squareRoot()
            let angle = 2 * Double.pi * WorldRandom.unit(placement.next())
            let start = Microseconds(placement.next() % 100_000)
            world.addDevice(DeviceDescription(name: "beacon \(tag)", position: Vector3(x: radius * cos(angle), y: radius * sin(angle), z: 1)),
                            controller: TestBeacon(tag: UInt32(tag), interval: 100_000, firstAt: start, channels: [37, 38, 39],
                                                   maximumDelay: 10_000, seed: placement.next()))
        }
        let listener = world.addDevice(DeviceDescription(name: "scanner", position: Vector3(x: 0, y: 0, z: 1)),
                                       controller: TestListener(rotation: 100_000))
        var heard = 0
        world.onHostPacket = { _, _ in heard += 1 }
        let clock = ContinuousClock()
        let started = clock.now
        world.run(until: Microseconds(seconds) * 1_000_000)
        let elapsed = clock.now - started
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let statistics = world.statistics
        let beaconTransmissions = statistics.transmissions
        #expect(statistics[listener].receptions == heard)
        return (Double(heard) / (Double(beaconTransmissions) / 3), Double(seconds) / wall, beaconTransmissions)
    }

    @Test("Crowds of 10, 100 and 1,000 beacons: the received fraction falls as beacons are added")
    func crowds() {
        var fractions: [Double] = []
        for (count, seconds) in [(10, 20), (100, 10), (1000, 5)] {
            let result = crowd(count, seconds: seconds)
            fractions.append(result.fraction)
            print("crowd of \(count) beacons: received fraction \(String(format: "%.4f", result.fraction)), "
                + "\(result.transmissions) transmissions in \(seconds) simulated s, "
                + "\(String(format: "%.1f", result.speed)) simulated s per wall s, "
                + "\(String(format: "%.0f", Double(result.transmissions) / Double(seconds) * result.speed)) transmissions per wall s")
        }
        #expect(fractions[0] > 0.95)
        #expect(fractions[0] > fractions[1])
        #expect(fractions[1] > fractions[2])
        // 1,000 beacons load each channel with about 2.9 packets at any moment (pure
        // ALOHA): only capture lets a few percent through, but some do.
        #expect(fractions[2] > 0.01)
    }
}
