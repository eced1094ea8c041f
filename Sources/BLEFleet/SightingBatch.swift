/// Consecutive sightings of one gateway run, written to a store in one transaction and
/// spooled as one unit while the store is away.
public struct SightingBatch: Hashable, Sendable, Codable {
    /// The sightings, in sequence order, all of one gateway and run.
    public var sightings: [Sighting]

    /// A batch of `sightings` (in sequence order, one gateway and run).
    public init(sightings: [Sighting]) {
        self.sightings = sightings
    }

    /// The first sighting's key, naming the batch; `nil` for an empty batch.
    public var firstKey: Sighting.Key? { sightings.first?.key }

    /// How many sightings it holds.
    public var count: Int { sightings.count }
}
