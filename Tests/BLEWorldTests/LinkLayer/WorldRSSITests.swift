import BLEController
import BLEWire
import BLEWorld
import Foundation
import Testing

/// RSSI as a scanning host reads it from advertising reports of real controllers.
@Suite("Reported RSSI in the world")
struct WorldRSSITests {
    /// Mean RSSI the scanner reports for an advertiser `distance` metres away, or nil if none.
    static func reportedRSSI(distance: Double, obstacle: Obstacle? = nil, shadowing: Double = 4, seed: UInt64 = 5) -> [Double] {
        let hosted = HostedWorld(seed: seed, radio: RadioModel(shadowingSigmaDB: shadowing), capturesHCI: false)
        let advertiser = hosted.add("advertiser", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: 1, txPowerDBm: 0)
        let scanner = hosted.add("scanner", at: Vector3(x: distance, y: 0), address: 0xF0_00_00_00_00_02, seed: 2)
        if let obstacle { hosted.world.addObstacle(obstacle) }
        hosted.advertise(advertiser, type: .nonConnectableUndirected, interval: 32)
        hosted.scan(scanner)
        hosted.world.run(until: hosted.world.now + 30_000_000)
        return hosted.reports(scanner).filter { $0.report.address.value == 0xF0_00_00_00_00_01 }.map { Double($0.report.rssi) }
    }

    static func meanRSSI(distance: Double, obstacle: Obstacle? = nil) -> (mean: Double, count: Int)? {
        let values = reportedRSSI(distance: distance, obstacle: obstacle)
        guard !values.isEmpty else { return nil }
        return (values.reduce(0, +) / Double(values.count), values.count)
    }

    @Test("At 1 to 40 m from a 0 dBm advertiser the mean RSSI is within 1 dB of 40 + 25·log10(d)",
          arguments: [1.0, 2, 5, 10, 20, 40])
    func pathLoss(distance: Double) throws {
        let measured = try #require(Self.meanRSSI(distance: distance))
        let model = -(40 + 25 * log10(distance))
        print("\(distance) m: mean RSSI \(measured.mean) dBm over \(measured.count) reports, model \(model) dBm")
        #expect(measured.count > 500)
        #expect(abs(measured.mean - model) <= 1)
    }

    @Test("Beyond sensitivity nothing is reported")
    func beyondSensitivity() {
        // Sensitivity -95 dBm: 40 + 25·log10(d) = 95 at d ≈ 158 m.
        #expect(Self.reportedRSSI(distance: 200, shadowing: 0).isEmpty)
        // With shadowing, packets near the edge come and go, but none is reported below -95 dBm.
        let edge = Self.reportedRSSI(distance: 150)
        #expect(!edge.isEmpty)
        #expect(edge.allSatisfy { $0 >= -95 })
    }

    @Test("A 20 dB obstacle on the line of sight lowers the mean RSSI by 20 dB")
    func obstacle() throws {
        let open = try #require(Self.meanRSSI(distance: 10))
        let wall = Obstacle(name: "wall", shape: .box(min: Vector3(x: 4.9, y: -5, z: -5), max: Vector3(x: 5.1, y: 5, z: 5)), lossDB: 20)
        let blocked = try #require(Self.meanRSSI(distance: 10, obstacle: wall))
        print("10 m open \(open.mean) dBm, behind a 20 dB wall \(blocked.mean) dBm")
        #expect(abs((open.mean - blocked.mean) - 20) <= 1)
    }
}
