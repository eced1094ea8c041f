import Foundation

/// How faithfully the world models the radio.
public enum TimingMode: String, Sendable, Codable {
    /// The full model: path loss, obstacles, shadowing, fading, sensitivity, collisions.
    case realistic
    /// Every packet sent to an open receiver arrives (no propagation losses, collisions,
    /// shadowing, fading or sensitivity limit), still on link-layer airtime: for fast tests
    /// and for measuring the stack itself. Explicit faults (blocked links, packet loss,
    /// power) still apply.
    case ideal
}

/// The propagation model shared by every link of a world (DESIGN.md, "The world").
///
/// Mean path loss is log-distance, `referenceLossDB + 10·pathLossExponent·log10(d)`
/// (distances under 0.1 m count as 0.1 m), which by default is `40 + 25·log10(d)`.
public struct RadioModel: Hashable, Sendable, Codable {
    /// Path loss at 1 m in dB (about 40 dB at 2.4 GHz in free space).
    public var referenceLossDB: Double
    /// The log-distance exponent: 2 in free space, 2.5–4 indoors.
    public var pathLossExponent: Double
    /// Standard deviation of log-normal shadowing in dB, drawn per transmitter, receiver
    /// and packet from the world's seed; 0 disables it.
    public var shadowingSigmaDB: Double
    /// Whether Rayleigh fast fading is added per transmitter, receiver and packet.
    public var fastFading: Bool
    /// Capture effect: a packet survives a collision when its power is at least this much
    /// above the summed power of the packets overlapping it on its channel.
    public var captureMarginDB: Double

    /// A model; the defaults are 40 dB at 1 m, exponent 2.5, no shadowing or fading and a
    /// 6 dB capture margin.
    public init(referenceLossDB: Double = 40, pathLossExponent: Double = 2.5, shadowingSigmaDB: Double = 0,
                fastFading: Bool = false, captureMarginDB: Double = 6) {
        self.referenceLossDB = referenceLossDB
        self.pathLossExponent = pathLossExponent
        self.shadowingSigmaDB = shadowingSigmaDB
        self.fastFading = fastFading
        self.captureMarginDB = captureMarginDB
    }

    /// Distances below this many metres count as this (the near field is not modelled).
    public static let minimumDistance = 0.1

    /// Mean path loss in dB over `distance` metres.
    public func pathLossDB(distance: Double) -> Double {
        referenceLossDB + 10 * pathLossExponent * log10(Swift.max(distance, Self.minimumDistance))
    }
}
