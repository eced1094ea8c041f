import BLEBeacons
import Testing

@Suite("RSSI filters")
struct RSSIFilterTests {
    @Test("The running average drops the weakest and strongest 10 % and averages the rest")
    func trimming() {
        var filter = RunningAverageRSSIFilter()
        for (index, rssi) in [-60, -60, -60, -100, -60, -60, -20, -60, -60, -60].enumerated() {
            filter.add(Double(rssi), at: seconds(Double(index) * 0.1))
        }
        // n = 10, k = 1: -100 and -20 go, eight -60 stay.
        #expect(filter.value(at: seconds(1)) == -60)
        // n = 20, k = 2: the 2 weakest and 2 strongest of -41 … -60 go.
        var twenty = RunningAverageRSSIFilter()
        for index in 0 ..< 20 { twenty.add(Double(-41 - index), at: seconds(Double(index) * 0.1)) }
        #expect(twenty.value(at: seconds(2)) == (-43.0 - 58.0) / 2)
    }

    @Test("Fewer than ten samples are averaged whole")
    func smallSamples() {
        var filter = RunningAverageRSSIFilter()
        for (index, rssi) in [-50, -60, -100].enumerated() { filter.add(Double(rssi), at: seconds(Double(index))) }
        #expect(filter.value(at: seconds(3)) == -70)
        #expect(RunningAverageRSSIFilter().value(at: 0) == nil)
    }

    @Test("A sample counts for less than the window, 20 s by default")
    func window() {
        var filter = RunningAverageRSSIFilter()
        filter.add(-80, at: seconds(0))
        filter.add(-60, at: seconds(10))
        #expect(filter.value(at: seconds(19.999_999)) == -70)
        #expect(filter.value(at: seconds(20)) == -60)
        #expect(filter.value(at: seconds(30)) == nil)
        filter.add(-50, at: seconds(30))
        #expect(filter.sampleCount == 1)
        var short = RunningAverageRSSIFilter(window: .seconds(1), trimFraction: 0)
        short.add(-90, at: seconds(0))
        short.add(-70, at: seconds(0.5))
        #expect(short.value(at: seconds(1.2)) == -70)
    }

    @Test("A trim fraction of a half or more is clamped so something is always averaged")
    func trimClamp() {
        var filter = RunningAverageRSSIFilter(window: .seconds(20), trimFraction: 0.9)
        for (index, rssi) in [-10, -20, -30, -40, -50, -60, -70, -80, -90, -100].enumerated() {
            filter.add(Double(rssi), at: seconds(Double(index)))
        }
        #expect(filter.value(at: seconds(10)) == -55) // k = 4: -50 and -60 remain
    }

    @Test("ARMA moves 10 % of the way to each sample, starting at the first")
    func arma() {
        var filter = ARMARSSIFilter()
        #expect(filter.value(at: 0) == nil)
        filter.add(-60, at: 0)
        #expect(filter.value(at: 0) == -60)
        filter.add(-70, at: seconds(1))
        #expect(abs((filter.value(at: 0) ?? 0) - -61) < 1e-12)
        filter.add(-70, at: seconds(2))
        #expect(abs((filter.value(at: seconds(100)) ?? 0) - -61.9) < 1e-12)
        var follow = ARMARSSIFilter(coefficient: 1)
        follow.add(-60, at: 0)
        follow.add(-75, at: 0)
        #expect(follow.value(at: 0) == -75)
    }

    @Test("Non-finite samples are ignored")
    func nonFinite() {
        var average = RunningAverageRSSIFilter()
        average.add(.nan, at: 0)
        average.add(.infinity, at: 0)
        #expect(average.value(at: 0) == nil)
        var arma = ARMARSSIFilter()
        arma.add(-60, at: 0)
        arma.add(.nan, at: 0)
        #expect(arma.value(at: 0) == -60)
    }
}
