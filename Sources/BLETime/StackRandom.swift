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
