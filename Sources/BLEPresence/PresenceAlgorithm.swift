/// An online presence algorithm: sightings in, zone changes out.
///
/// Implementations are causal and sans-IO: they know only the sightings and times fed so far and
/// never read a clock. ``observe(_:)`` takes sightings in time order; ``advance(to:)`` moves time
/// forward when no sighting arrives, so that time-outs (an identity that goes quiet) fire.
/// ``PresenceRunner`` drives one over a recorded list of sightings.
public protocol PresenceAlgorithm: Sendable {
    /// A short name for score tables ("hysteresis", "espresense").
    var name: String { get }

    /// Takes one sighting (no earlier than any before it) and returns the zone changes it causes.
    mutating func observe(_ observation: PresenceObservation) -> [PresenceEvent]

    /// Moves time forward to `time` and returns the zone changes that time alone causes
    /// (time-outs, dwell times that have now elapsed).
    mutating func advance(to time: Double) -> [PresenceEvent]

    /// The zone `identity` is reported in now, or `nil` for no zone (never seen, or timed out).
    func zone(of identity: String) -> String?
}
