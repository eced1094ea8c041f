/// One sighting: a receiver ("gateway") heard an identity's advertisement at a time with an RSSI.
///
/// The input of every ``PresenceAlgorithm``. An identity is whatever names one device across
/// address rotations (a resolved IRK, a beacon's UUID–major–minor); the algorithms only compare
/// identities for equality.
public struct PresenceObservation: Hashable, Sendable, Codable {
    /// When the gateway heard the advertisement, in seconds on the caller's clock.
    public var time: Double
    /// The device heard.
    public var identity: String
    /// The receiver that heard it; a ``ZoneMap`` places it in a zone.
    public var gateway: String
    /// Received signal strength in dBm.
    public var rssi: Int
    /// The RSSI the device announces at 1 m (a beacon's measured power), when it announces one.
    public var referencePower: Int?

    /// A sighting of `identity` by `gateway` at `time` with `rssi` dBm; `referencePower` is the
    /// announced RSSI at 1 m, if any.
    public init(time: Double, identity: String, gateway: String, rssi: Int, referencePower: Int? = nil) {
        self.time = time
        self.identity = identity
        self.gateway = gateway
        self.rssi = rssi
        self.referencePower = referencePower
    }
}

/// A change in an identity's reported zone: the output of every ``PresenceAlgorithm``.
///
/// A move from zone A to zone B is two events at the same time, `.exit("A")` then `.enter("B")`,
/// so that a consumer counting occupants per zone needs no special case for moves.
public struct PresenceEvent: Hashable, Sendable, Codable, CustomStringConvertible {
    /// What happened to the identity.
    public enum Kind: Hashable, Sendable, Codable {
        /// The identity is now reported in this zone.
        case enter(String)
        /// The identity is no longer reported in this zone.
        case exit(String)
    }

    /// When the algorithm decided, in seconds (the time of the sighting or tick that caused it).
    public var time: Double
    /// The device that moved.
    public var identity: String
    /// Entry into or exit from a zone.
    public var kind: Kind

    /// An event of `kind` for `identity` at `time`.
    public init(time: Double, identity: String, kind: Kind) {
        self.time = time
        self.identity = identity
        self.kind = kind
    }

    /// The events that move `identity` from zone `from` to zone `to` at `time`: an exit from the
    /// old zone (if any) then an entry into the new one (if any); nothing when they are equal.
    public static func transition(identity: String, from: String?, to: String?, at time: Double) -> [PresenceEvent] {
        guard from != to else { return [] }
        var events: [PresenceEvent] = []
        if let from { events.append(PresenceEvent(time: time, identity: identity, kind: .exit(from))) }
        if let to { events.append(PresenceEvent(time: time, identity: identity, kind: .enter(to))) }
        return events
    }

    /// "12.5 s alice enter kitchen".
    public var description: String {
        switch kind {
        case let .enter(zone): "\(time) s \(identity) enter \(zone)"
        case let .exit(zone): "\(time) s \(identity) exit \(zone)"
        }
    }
}
