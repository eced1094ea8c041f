import Foundation

/// How much of a packet's reach (``World/reach(txPowerDBm:senderGainDBi:phy:)``) is left at
/// one receiver once the packet's own shadowing draw there is known.
///
/// The reach carries the largest variation any draw can give (8.65 σ of shadowing, with σ =
/// 2 dB some 17 dB), so in a city most receivers that lock onto a packet stand where only the
/// rarest draw could lift it to their sensitivity, and end below it. But the draw at a
/// receiver is a function of the seed, the packet's serial number and the receiver alone
/// (``World/randomVariationDB(serial:receiver:)``), known when the packet starts: shadowing
/// is v = σ·√(−2 ln u₁)·cos(2πu₂). So for u₁ and u₂ in known bins v is bounded, and the
/// receiver's squared reach shrinks by 10^(2·(v_max(bins) − V_max) / (10·n)), the factor this
/// table holds: a receiver farther than that would have found the packet below its
/// sensitivity however the draw fell within the bins, exactly as the full draw at the
/// packet's end would find (with the reach's own margin for rounding, and 10⁻⁶ σ for the
/// draw's). Rayleigh fading, a third draw, is counted at its largest.
///
/// Within a bin √(−2 ln u₁) lies between its values at the bin's edges (the smallest u₁ a draw
/// can give, ``WorldRandom/unit(_:)`` of 0, for the first bin), and cos(2πu₂) between its
/// values at the bin's edges (its extremes, at 0 and ½, are edges); so v is at most the larger
/// radius times the largest cosine where that cosine is positive, and the smaller radius
/// times it where it is not.
struct DrawReach: Sendable {
    /// Bins of u₁ and u₂: powers of two, so that u·bins and its truncation are exact.
    static let firstBins = 128
    static let secondBins = 32
    /// For u₁ in bin i and u₂ in bin j, the factor at [i·``secondBins`` + j], in (0, 1].
    let factors: [Double]
    /// Whether any factor is below 1: without shadowing, or with a model that sets no reach,
    /// there is nothing to gain from drawing.
    let applies: Bool

    /// The table for `radio`, whose largest variation is `maximumVariationDB`
    /// (``World/maximumVariationDB(_:)``).
    init(radio: RadioModel, maximumVariationDB: Double) {
        let sigma = radio.shadowingSigmaDB, exponent = radio.pathLossExponent
        guard sigma > 0, sigma.isFinite, exponent > 0, exponent.isFinite, maximumVariationDB.isFinite else {
            factors = Array(repeating: 1, count: Self.firstBins * Self.secondBins)
            applies = false
            return
        }
        let fading = radio.fastFading ? 10 * log10(-log(WorldRandom.unit(0))) : 0
        var factors = [Double](repeating: 1, count: Self.firstBins * Self.secondBins)
        for first in 0 ..< Self.firstBins {
            let lowEdge = first == 0 ? WorldRandom.unit(0) : Double(first) / Double(Self.firstBins)
            let highEdge = Double(first + 1) / Double(Self.firstBins)
            let largestRadius = (-2 * log(lowEdge)).squareRoot()
            let smallestRadius = first + 1 == Self.firstBins ? 0 : (-2 * log(highEdge)).squareRoot()
            for second in 0 ..< Self.secondBins {
                let cosine = Swift.max(cos(2 * .pi * Double(second) / Double(Self.secondBins)),
                                       cos(2 * .pi * Double(second + 1) / Double(Self.secondBins)))
                let largest = cosine > 0 ? largestRadius * cosine : smallestRadius * cosine
                let variation = sigma * (largest + 1e-6) + fading
                let factor = pow(10, 2 * (variation - maximumVariationDB) / (10 * exponent))
                if factor.isFinite, factor < 1 { factors[first * Self.secondBins + second] = factor }
            }
        }
        self.factors = factors
        applies = factors.contains { $0 < 1 }
    }

    /// The factor of the squared reach left by the shadowing draws `first` (u₁) and `second`
    /// (u₂), both in (0, 1).
    @inline(__always)
    func factor(first: Double, second: Double) -> Double {
        guard let row = Self.bin(first, of: Self.firstBins), let column = Self.bin(second, of: Self.secondBins) else { return 1 }
        return factors[row * Self.secondBins + column]
    }

    /// The largest factor the first draw `first` (u₁) leaves whatever the second: that of the
    /// second's first bin, where the cosine is 1. A receiver beyond it needs no second draw.
    @inline(__always)
    func factor(first: Double) -> Double {
        guard let row = Self.bin(first, of: Self.firstBins) else { return 1 }
        return factors[row * Self.secondBins]
    }

    /// The bin of `unit` among `bins`, or `nil` outside [0, 1] (not a number included). A
    /// draw of exactly 1, which ``WorldRandom/unit(_:)`` gives for its largest inputs (2⁵³ − ½
    /// rounds to 2⁵³), falls in the last bin, whose edge it is: √(−2 ln u₁) is 0 there and
    /// cos(2πu₂) 1, both within that bin's bounds.
    @inline(__always)
    static func bin(_ unit: Double, of bins: Int) -> Int? {
        guard unit >= 0, unit <= 1 else { return nil }
        return Swift.min(Int(unit * Double(bins)), bins - 1)
    }
}
