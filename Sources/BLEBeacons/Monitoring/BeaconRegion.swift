/// Why a region cannot be built or monitored.
public enum BeaconMonitoringError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A minor value without a major value: Core Location's `CLBeaconIdentityConstraint`
    /// and `CLBeaconRegion` have no way to say one, since a minor only means something
    /// within its major.
    case minorWithoutMajor
    /// The monitor already watches its limit of regions (20 by default, Core Location's
    /// per-app limit); the region was not added. Core Location reports this through
    /// `monitoringDidFailFor` with `CLError.regionMonitoringFailure`.
    case regionLimitReached(limit: Int)

    /// The `CLError.Code` raw value Core Location reports for this failure, when it has
    /// one: 5 (`regionMonitoringFailure`) for the region limit.
    public var coreLocationCode: Int? {
        switch self {
        case .minorWithoutMajor: return nil
        case .regionLimitReached: return 5
        }
    }

    /// One sentence saying what went wrong.
    public var description: String {
        switch self {
        case .minorWithoutMajor:
            return "a beacon region with a minor value needs a major value too"
        case let .regionLimitReached(limit):
            return "already monitoring \(limit) regions, the most allowed; stop monitoring one first"
        }
    }
}

/// Which iBeacons a region or a ranging request covers: a proximity UUID, optionally a
/// major, and optionally a minor within that major (Core Location's
/// `CLBeaconIdentityConstraint`). Built only in the three shapes Core Location allows.
public struct BeaconIdentityConstraint: Hashable, Sendable, CustomStringConvertible {
    /// The proximity UUID every matching beacon has.
    public let uuid: ProximityUUID
    /// The major value matching beacons have, or `nil` for any.
    public let major: UInt16?
    /// The minor value matching beacons have, or `nil` for any; never set without ``major``.
    public let minor: UInt16?

    /// Every beacon with `uuid`.
    public init(uuid: ProximityUUID) {
        self.uuid = uuid
        major = nil
        minor = nil
    }

    /// Every beacon with `uuid` and `major`.
    public init(uuid: ProximityUUID, major: UInt16) {
        self.uuid = uuid
        self.major = major
        minor = nil
    }

    /// The one beacon with `uuid`, `major` and `minor`.
    public init(uuid: ProximityUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// A constraint from optional values, as a command line gives them; throws
    /// ``BeaconMonitoringError/minorWithoutMajor`` for a minor without a major.
    public static func validated(uuid: ProximityUUID, major: UInt16?, minor: UInt16?) throws(BeaconMonitoringError) -> Self {
        switch (major, minor) {
        case (nil, nil): return Self(uuid: uuid)
        case let (major?, nil): return Self(uuid: uuid, major: major)
        case let (major?, minor?): return Self(uuid: uuid, major: major, minor: minor)
        case (nil, _?): throw .minorWithoutMajor
        }
    }

    /// Whether `identity` is one of the beacons covered.
    public func matches(_ identity: IBeaconIdentity) -> Bool {
        identity.uuid == uuid && (major.map { $0 == identity.major } ?? true) && (minor.map { $0 == identity.minor } ?? true)
    }

    /// `UUID`, `UUID major` or `UUID major minor`.
    public var description: String {
        [uuid.uuidString, major.map(String.init), minor.map(String.init)].compactMap { $0 }.joined(separator: " ")
    }
}

/// A named region of iBeacons to monitor (Core Location's `CLBeaconRegion`): the app's
/// identifier for it and the beacons it covers. Two regions with the same identifier are
/// the same region to a monitor: starting the second replaces the first.
public struct BeaconRegion: Hashable, Sendable, CustomStringConvertible {
    /// The app's name for the region.
    public var identifier: String
    /// The beacons it covers.
    public var constraint: BeaconIdentityConstraint

    /// A region named `identifier` covering `constraint`.
    public init(identifier: String, constraint: BeaconIdentityConstraint) {
        self.identifier = identifier
        self.constraint = constraint
    }

    /// A region from optional values; throws for a minor without a major.
    public init(identifier: String, uuid: ProximityUUID, major: UInt16? = nil, minor: UInt16? = nil) throws(BeaconMonitoringError) {
        self.init(identifier: identifier, constraint: try .validated(uuid: uuid, major: major, minor: minor))
    }

    /// Whether the beacon `identity` belongs to the region.
    public func contains(_ identity: IBeaconIdentity) -> Bool { constraint.matches(identity) }

    /// `identifier (constraint)`.
    public var description: String { "\(identifier) (\(constraint))" }
}

/// Whether the device is in a region (Core Location's `CLRegionState`, same raw values).
public enum RegionState: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Not yet determined: monitoring started less than an exit period ago and no beacon
    /// of the region has been heard.
    case unknown = 0
    /// A beacon of the region was heard within the exit period.
    case inside = 1
    /// No beacon of the region heard for the exit period.
    case outside = 2

    /// `unknown`, `inside` or `outside`.
    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .inside: return "inside"
        case .outside: return "outside"
        }
    }
}
