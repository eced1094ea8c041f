import Foundation

/// Settles whether the interference at a receiver drowns the wanted packet from bounds on
/// each interferer's shadowing, without drawing it: the logarithm, cosine and power of the
/// full draw (``World/randomVariationDB(serial:receiver:)``) are skipped for every interferer
/// of a packet the bounds settle, and a packet surely drowned stops at the interferer that
/// settles it. In a city of 100,000 beacons a receiver's packet has some 73 interferers.
///
/// The packet is drowned when the interference power I (milliwatts) is positive and the
/// wanted level minus 10·log₁₀ I falls under the capture margin, that is when I exceeds
/// T = 10^((wanted − margin)/10). Shadowing adds σ·√(−2 ln u₁)·cos(2πu₂) to an
/// interferer's mean level, and ``ShadowingFactors`` bounds that from the bins u₁ and u₂ fall
/// in. So with e = 10^(mean/10) the interferer adds between e·down and e·up. Once the sum of
/// the lower ends exceeds T, or when the sum of the upper ends stays under it, the full draw
/// would find the same; a relative slack of 10⁻⁹ on T (far above the rounding of sums of a few
/// thousand terms) leaves near ties to the full draw.
struct InterferenceBounds {
    /// T·(1 + 10⁻⁹): a sum of lower ends above it is surely drowning.
    let surelyAbove: Double
    /// T·(1 − 10⁻⁹): a sum of upper ends below it surely is not.
    let surelyUnder: Double
    let factors: ShadowingFactors
    /// The sums of the interferers' lower and upper ends so far, in milliwatts.
    private(set) var lower = 0.0
    private(set) var upper = 0.0

    /// Bounds for a wanted packet at `wantedDBm` under `radio`, or `nil` where they do not
    /// apply: fast fading (whose gain they do not bound), no shadowing, or a threshold that is
    /// not a positive finite number. `factors` is the world's ``ShadowingFactors`` for `radio`.
    init?(wantedDBm: Double, radio: RadioModel, factors: ShadowingFactors) {
        guard !radio.fastFading, radio.shadowingSigmaDB > 0 else { return nil }
        let threshold = pow(10, (wantedDBm - radio.captureMarginDB) / 10)
        guard threshold.isFinite, threshold > 0 else { return nil }
        surelyAbove = threshold * (1 + 1e-9)
        surelyUnder = threshold * (1 - 1e-9)
        self.factors = factors
    }

    /// Adds an interferer whose mean level at the receiver is `meanDBm` and whose draws for
    /// it are `first` (u₁) and `second` (u₂); `true` once the interference surely drowns the
    /// packet.
    @inline(__always)
    mutating func add(meanDBm: Double, first: Double, second: Double) -> Bool {
        // 10^(mean/10) as e^(mean·ln 10/10): the two differ by a few parts in 10¹⁴.
        let mean = exp(meanDBm * 0.230_258_509_299_404_57)
        let (down, up) = factors.range(first: first, second: second)
        lower += mean * down
        upper += mean * up
        return lower > surelyAbove
    }

    /// Whether the interferers added surely leave the packet to be captured. Anything that is
    /// not a number on the way leaves this `false`, for the full draw to judge.
    var surelyClear: Bool { upper < surelyUnder }

    /// The full draw's verdict: `interferenceMilliwatts` drowns a packet at `wantedDBm`.
    static func drowns(wantedDBm: Double, interferenceMilliwatts: Double, captureMarginDB: Double) -> Bool {
        interferenceMilliwatts > 0 && wantedDBm - 10 * log10(interferenceMilliwatts) < captureMarginDB
    }
}

/// The range of 10^(v/10) for the shadowing v = σ·√(−2 ln u₁)·cos(2πu₂) of one draw, worked
/// out once per world for each pair of bins (64ths) u₁ and u₂ fall in, so that bounding an
/// interferer takes two multiplications instead of a logarithm, a cosine and a power.
///
/// Within a bin √(−2 ln u₁) lies between its values at the bin's edges (it falls as u₁ grows)
/// and cos(2πu₂) between its values at the bin's edges (its extremes, at 0 and ½, are bin
/// edges), so v lies between the extreme products of the two. A slack of 10⁻⁶ σ on each side
/// covers the rounding of the draw itself. The first bin of u₁, where √(−2 ln u₁) has no
/// bound, is bounded for each draw by σ·√(2 (1/u₁ − 1)) ≥ |v| (ln x ≤ x − 1 for x = 1/u₁).
struct ShadowingFactors: Sendable {
    /// How many bins (0, 1) is cut into for each draw.
    static let bins = 64
    let sigmaDB: Double
    /// For u₁ in bin i ≥ 1 and u₂ in bin j, down[i·64 + j] ≤ 10^(v/10) ≤ up[i·64 + j].
    let down: [Double]
    let up: [Double]

    init(sigmaDB: Double) {
        self.sigmaDB = sigmaDB
        let bins = Self.bins
        var down = [Double](repeating: 0, count: bins * bins)
        var up = [Double](repeating: .infinity, count: bins * bins)
        let edge = { (bin: Int) in Double(bin) / Double(bins) }
        for first in 1 ..< bins {
            let radii = [(-2 * log(edge(first + 1))).squareRoot(), (-2 * log(edge(first))).squareRoot()]
            for second in 0 ..< bins {
                let cosines = [cos(2 * .pi * edge(second)), cos(2 * .pi * edge(second + 1))]
                let products = radii.flatMap { radius in cosines.map { radius * $0 } }
                let lowest = products.min()! - 1e-6, highest = products.max()! + 1e-6
                down[first * bins + second] = pow(10, sigmaDB * lowest / 10)
                up[first * bins + second] = pow(10, sigmaDB * highest / 10)
            }
        }
        self.down = down
        self.up = up
    }

    /// The range of 10^(v/10) for the draws `first` (u₁) and `second` (u₂), both in (0, 1).
    @inline(__always)
    func range(first: Double, second: Double) -> (down: Double, up: Double) {
        let row = Int(first * Double(Self.bins)), column = Int(second * Double(Self.bins))
        if row > 0, row < Self.bins, column >= 0, column < Self.bins {
            return (down[row * Self.bins + column], up[row * Self.bins + column])
        }
        let factor = pow(10, sigmaDB * Self.firstDrawBound(first) / 10)
        return (1 / factor, factor)
    }

    /// A bound on |v|/σ from the first draw alone, σ·√(2 (1/u₁ − 1)) ≥ |v| since ln x ≤ x − 1
    /// for x = 1/u₁, with 10⁻⁶ to spare for rounding: used where u₁'s bin gives none, and by
    /// ``World/isSurelyBelow(_:meanPowerDBm:serial:receiver:)``.
    @inline(__always)
    static func firstDrawBound(_ first: Double) -> Double {
        (2 * (1 / first - 1)).squareRoot() + 1e-6
    }
}
