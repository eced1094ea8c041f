@testable import BLEWorld
import Foundation
import Testing

@Suite("Interference settled from bounds on the shadowing")
struct InterferenceBoundsTests {
    /// The draws the world makes for one packet at one receiver.
    static func draws(_ world: World, serial: UInt64, receiver: Int) -> (first: Double, second: Double) {
        let seed = world.configuration.seed
        return (WorldRandom.unit(WorldRandom.hash(seed: seed, serial, UInt64(receiver), 1)),
                WorldRandom.unit(WorldRandom.hash(seed: seed, serial, UInt64(receiver), 2)))
    }

    @Test("Every shadowing draw lies within the range its bins give, and the bins are narrow")
    func factorsHoldEveryDraw() {
        let world = World(configuration: WorldConfiguration(seed: 11, radio: RadioModel(shadowingSigmaDB: 4)))
        var widths: [Double] = []
        for serial in UInt64(0) ..< 50_000 {
            let receiver = Int(serial % 37)
            let gain = pow(10, world.randomVariationDB(serial: serial, receiver: receiver) / 10)
            let (first, second) = Self.draws(world, serial: serial, receiver: receiver)
            let range = world.shadowingFactors.range(first: first, second: second)
            #expect(range.down <= gain && gain <= range.up, "serial \(serial): \(gain) outside \(range)")
            widths.append(10 * log10(range.up / range.down))
        }
        // Bins of a 64th of each draw: the median range is well under 2 dB wide at σ = 4 dB,
        // against ±1.4 σ (11 dB) for the bound of the first draw alone.
        #expect(widths.sorted()[widths.count / 2] < 2)
    }

    @Test("A verdict the bounds settle is the full draw's, and most are settled", arguments: [2.0, 4.0, 8.0])
    func settledVerdictsMatchTheFullDraw(sigma: Double) throws {
        let radio = RadioModel(shadowingSigmaDB: sigma)
        let world = World(configuration: WorldConfiguration(seed: 5, radio: radio))
        var settled = 0, drowned = 0
        let packets = 4_000
        for packet in 0 ..< packets {
            let receiver = packet % 29
            let wanted = -95 + Double(packet % 60)
            let count = 1 + packet % 80
            let means = (0 ..< count).map { -140 + Double((packet &* 7919 &+ $0 &* 104_729) % 700) / 10 }
            let serials = (0 ..< count).map { UInt64(packet * 100 + $0) }
            var milliwatts = 0.0
            for (mean, serial) in zip(means, serials) {
                milliwatts += pow(10, (mean + world.randomVariationDB(serial: serial, receiver: receiver)) / 10)
            }
            let full = InterferenceBounds.drowns(wantedDBm: wanted, interferenceMilliwatts: milliwatts,
                                                 captureMarginDB: radio.captureMarginDB)
            if full { drowned += 1 }
            var bounds = try #require(InterferenceBounds(wantedDBm: wanted, radio: radio, factors: world.shadowingFactors))
            var verdict: Bool?
            for (mean, serial) in zip(means, serials) {
                let (first, second) = Self.draws(world, serial: serial, receiver: receiver)
                if bounds.add(meanDBm: mean, first: first, second: second) {
                    verdict = true
                    break
                }
            }
            if verdict == nil, bounds.surelyClear { verdict = false }
            guard let verdict else { continue }
            settled += 1
            #expect(verdict == full, "packet \(packet): bounds say \(verdict), the full draw \(full)")
        }
        #expect(drowned > packets / 10 && drowned < packets * 9 / 10, "\(drowned) of \(packets) drowned: both verdicts are exercised")
        #expect(settled > packets * 3 / 4, "\(settled) of \(packets) settled")
    }

    @Test("No bounds where they do not apply: fast fading, no shadowing, a wanted level that is not a number")
    func noBoundsWhereTheyDoNotApply() {
        let factors = ShadowingFactors(sigmaDB: 4)
        #expect(InterferenceBounds(wantedDBm: -60, radio: RadioModel(shadowingSigmaDB: 4, fastFading: true), factors: factors) == nil)
        #expect(InterferenceBounds(wantedDBm: -60, radio: RadioModel(shadowingSigmaDB: 0), factors: factors) == nil)
        #expect(InterferenceBounds(wantedDBm: .nan, radio: RadioModel(shadowingSigmaDB: 4), factors: factors) == nil)
        #expect(InterferenceBounds(wantedDBm: -.infinity, radio: RadioModel(shadowingSigmaDB: 4), factors: factors) == nil)
        // An interferer whose level is not a number settles nothing.
        var bounds = InterferenceBounds(wantedDBm: -60, radio: RadioModel(shadowingSigmaDB: 4), factors: factors)!
        let settles = bounds.add(meanDBm: .nan, first: 0.5, second: 0.5)
        #expect(!settles)
        #expect(!bounds.surelyClear)
    }
}
