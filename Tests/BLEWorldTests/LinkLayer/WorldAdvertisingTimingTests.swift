import BLEController
import BLEWire
import BLEWorld
import Testing

/// Link-layer timing as a scanning host sees it in a world of real controllers.
@Suite("Advertising timing in the world")
struct WorldAdvertisingTimingTests {
    @Test("A continuously scanning device sees 100 ms advertising events every 105 ms ± 1 ms on average")
    func meanAdvertisingInterval() throws {
        let hosted = HostedWorld(seed: 7)
        let advertiser = hosted.add("advertiser", at: Vector3(x: 0, y: 0), address: 0xF0_00_00_00_00_01, seed: 1)
        let scanner = hosted.add("scanner", at: Vector3(x: 3, y: 0), address: 0xF0_00_00_00_00_02, seed: 2)
        hosted.advertise(advertiser, interval: 160)
        hosted.scan(scanner)
        hosted.world.run(until: hosted.world.now + 105_000_000)

        let times = hosted.reports(scanner).filter { $0.report.address.value == 0xF0_00_00_00_00_01 }.map(\.at)
        #expect(times.count > 900)
        let gaps = zip(times.dropFirst(), times).map { Double($0 - $1) }
        let mean = gaps.reduce(0, +) / Double(gaps.count) / 1000
        print("mean advertising interval seen by the scanner: \(mean) ms over \(gaps.count) events")
        #expect(abs(mean - 105) <= 1, "mean \(mean) ms")
    }
}
