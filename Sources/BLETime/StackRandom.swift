/// The random numbers of the stack's own choices (keys it generates, identifiers it makes
/// up, private addresses): drawn from the seeded sequence of the ``Simulation`` the caller
/// belongs to (``Simulation/drawSeed()``), so a simulated run repeats byte for byte, and from
/// the system's secure generator everywhere else, where keys must be unpredictable.
public struct StackRandom: RandomNumberGenerator, Sendable {
    /// A generator for the caller's context.
    public init() {}

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        if let simulation = Simulation.current { return simulation.drawSeed() }
        var system = SystemRandomNumberGenerator()
        return system.next()
    }
}

extension Simulation {
    /// The next value of a seeded sequence (SplitMix64), for the random choices of what runs
    /// in the simulation (a host's pairing values): drawn in the same order, the same values.
    public func drawSeed() -> UInt64 {
        lock.withLock {
            state.seedState &+= 0x9E37_79B9_7F4A_7C15
            var z = state.seedState
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
