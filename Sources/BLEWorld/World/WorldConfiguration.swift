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

    /// A configuration; by default realistic, with the default radio model and capture on.
    public init(seed: UInt64, timing: TimingMode = .realistic, radio: RadioModel = RadioModel(), capturesHCI: Bool = true) {
        self.seed = seed
        self.timing = timing
        self.radio = radio
        self.capturesHCI = capturesHCI
    }
}
