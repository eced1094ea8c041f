import BLEController
import BLEWire
import BLEWorld
import Testing

/// Many real controllers advertising around one scanner: collisions on the advertising
/// channels make the received fraction fall as the crowd grows.
@Suite("Crowds of beacons in the world")
struct WorldCrowdTests {
    /// The fraction of advertising events received by a continuously scanning device among
    /// `count` non-connectable advertisers at 100 ms within 30 m, over `seconds`.
    static func receivedFraction(count: Int, seconds: Double) -> Double {
        let hosted = HostedWorld(seed: UInt64(count), capturesHCI: false)
        let scanner = hosted.add("scanner", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_00, seed: 0)
        var random = SeededRandom(seed: UInt64(count) &* 31)
        var beacons: [DeviceID] = []
        for index in 1 ... count {
            // Uniform in a 30 m disc around the scanner, at least 1 m away.
            var x = 0.0, y = 0.0
            repeat {
                x = random.unit() * 60 - 30
                y = random.unit() * 60 - 30
            } while x * x + y * y > 900 || x * x + y * y < 1
            let beacon = hosted.add("beacon \(index)", at: Vector3(x: x, y: y), address: 0xC0_00_00_00_00_00 + UInt64(index), seed: UInt64(index))
            hosted.advertise(beacon, type: .nonConnectableUndirected, interval: 160,
                             data: [0x02, 0x01, 0x04, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + [UInt8](repeating: UInt8(index & 0xFF), count: 21))
            beacons.append(beacon)
        }
        hosted.scan(scanner)
        let start = hosted.world.now
        let eventsBefore = beacons.map { hosted.world.statistics[$0].transmissions }.reduce(0, +)
        let reportsBefore = hosted.reports(scanner).count
        hosted.world.run(until: start + Int64(seconds * 1_000_000))
        let eventsSent = (beacons.map { hosted.world.statistics[$0].transmissions }.reduce(0, +) - eventsBefore) / 3
        let received = hosted.reports(scanner).count - reportsBefore
        return Double(received) / Double(max(eventsSent, 1))
    }

    @Test("10, 100 and 1,000 beacons: the fraction of advertising events received falls as beacons are added")
    func crowdsCollide() {
        let fractions = [10, 100, 1000].map { count in
            let fraction = Self.receivedFraction(count: count, seconds: count == 1000 ? 2 : 5)
            print("\(count) beacons at 100 ms within 30 m: \(fraction) of advertising events received")
            return fraction
        }
        #expect(fractions[0] > 0.75)
        #expect(fractions[0] > fractions[1])
        #expect(fractions[1] > fractions[2])
    }
}

/// SplitMix64 for placing test devices reproducibly.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
