/// Everything that shapes a world before devices are added.
public struct WorldConfiguration: Sendable {
    /// The seed of every random draw the world makes (shadowing, fading, packet loss), so
    /// a run replays exactly (DESIGN.md, "Determinism").
    public var seed: UInt64
    /// Realistic radio or ideal delivery.
    public var timing: TimingMode
    /// The propagation model.
    public var radio: RadioModel
    /// Whether every device's HCI traffic is kept for ``World/snoop(of:)``; turning it off
    /// saves memory and time in large simulations.
    public var capturesHCI: Bool
    /// Where the world's (0, 0) is on Earth, for the location its devices report
    /// (``HCI/ReadSimulatedLocation``); `nil`: the world is nowhere in particular, and
    /// devices report positions in metres only.
    public var geographicOrigin: GeographicOrigin?

    /// A configuration; by default realistic, with the default radio model, capture on and
    /// no geographic origin.
    public init(seed: UInt64, timing: TimingMode = .realistic, radio: RadioModel = RadioModel(), capturesHCI: Bool = true,
                geographicOrigin: GeographicOrigin? = nil) {
        self.seed = seed
        self.timing = timing
        self.radio = radio
        self.capturesHCI = capturesHCI
        self.geographicOrigin = geographicOrigin
    }
}
