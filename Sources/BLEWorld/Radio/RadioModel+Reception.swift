import Foundation

extension RadioModel {
    /// The probability that one packet whose mean received power is `meanPowerDBm` arrives
    /// at or above `sensitivityDBm` once the world adds its per-packet variation
    /// (`World.randomVariationDB`): log-normal shadowing, a Gaussian of `shadowingSigmaDB`
    /// in dB, plus, with ``fastFading``, Rayleigh fading, whose power gain X is
    /// exponentially distributed with mean 1 (Rappaport, *Wireless Communications*, 2nd ed.,
    /// §5.6; Goldsmith, *Wireless Communications*, §3.2.1).
    ///
    /// With margin m = mean − sensitivity:
    /// - neither: 1 when m ≥ 0, else 0;
    /// - shadowing only: Φ(m / σ);
    /// - fading only: P(10·log10 X ≥ −m) = exp(−10^(−m/10));
    /// - both: E over the shadowing draw g ~ N(0, 1) of exp(−10^((−m − σg)/10)), integrated
    ///   numerically (Simpson's rule over ±8σ).
    public func receptionProbability(meanPowerDBm: Double, sensitivityDBm: Double) -> Double {
        let margin = meanPowerDBm - sensitivityDBm
        guard margin.isFinite else { return margin > 0 ? 1 : 0 }
        let sigma = shadowingSigmaDB
        switch (sigma > 0, fastFading) {
        case (false, false):
            return margin >= 0 ? 1 : 0
        case (true, false):
            return 0.5 * erfc(-margin / (sigma * 2.0.squareRoot()))
        case (false, true):
            return Self.rayleighSurvival(margin: margin)
        case (true, true):
            let steps = 400
            let low = -8.0, width = 16.0 / Double(steps)
            var sum = 0.0
            for step in 0 ... steps {
                let g = low + Double(step) * width
                let weight: Double = step == 0 || step == steps ? 1 : (step % 2 == 1 ? 4 : 2)
                let density = exp(-g * g / 2) / (2 * Double.pi).squareRoot()
                sum += weight * density * Self.rayleighSurvival(margin: margin + sigma * g)
            }
            return Swift.min(1, Swift.max(0, sum * width / 3))
        }
    }

    /// P(10·log10 X ≥ −margin) for X exponential with mean 1.
    private static func rayleighSurvival(margin: Double) -> Double {
        exp(-pow(10, -margin / 10))
    }
}
