import BLEBeacons
import Foundation

/// Which iBeacons to range or monitor: a proximity UUID, optionally a major, optionally a
/// minor within that major (Core Location's `CLBeaconIdentityConstraint`). Equal when the
/// three values are, so it works as a `Set` element like Apple's.
open class CLBeaconIdentityConstraint: NSObject, NSCopying {
    /// The proximity UUID of every matching beacon.
    public let uuid: UUID
    /// The major value of matching beacons, or `nil` for any.
    public let major: CLBeaconMajorValue?
    /// The minor value of matching beacons, or `nil` for any (never without a major).
    public let minor: CLBeaconMinorValue?

    /// Every beacon with `uuid`.
    public init(uuid: UUID) {
        self.uuid = uuid
        major = nil
        minor = nil
    }

    /// Every beacon with `uuid` and `major`.
    public init(uuid: UUID, major: CLBeaconMajorValue) {
        self.uuid = uuid
        self.major = major
        minor = nil
    }

    /// The beacon with `uuid`, `major` and `minor`.
    public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// The constraint for BLEBeacons' value.
    convenience init(_ value: BeaconIdentityConstraint) {
        let uuid = UUID(value.uuid)
        switch (value.major, value.minor) {
        case let (major?, minor?): self.init(uuid: uuid, major: major, minor: minor)
        case let (major?, nil): self.init(uuid: uuid, major: major)
        default: self.init(uuid: uuid)
        }
    }

    /// BLEBeacons' value of this constraint, which the ranging and monitoring cores take.
    var value: BeaconIdentityConstraint {
        let proximity = ProximityUUID(uuid)
        switch (major, minor) {
        case let (major?, minor?): return BeaconIdentityConstraint(uuid: proximity, major: major, minor: minor)
        case let (major?, nil): return BeaconIdentityConstraint(uuid: proximity, major: major)
        default: return BeaconIdentityConstraint(uuid: proximity)
        }
    }

    /// Equal to another constraint with the same UUID, major and minor.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLBeaconIdentityConstraint else { return false }
        return uuid == other.uuid && major == other.major && minor == other.minor
    }

    /// A hash of UUID, major and minor, consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(uuid)
        hasher.combine(major)
        hasher.combine(minor)
        return hasher.finalize()
    }

    /// The constraint itself: it is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `UUID major minor`, as far as given.
    open override var description: String { value.description }
}

extension UUID {
    /// The Foundation UUID of a proximity UUID.
    init(_ proximity: ProximityUUID) {
        let o = proximity.octets
        self.init(uuid: (o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13], o[14], o[15]))
    }
}

extension ProximityUUID {
    /// The proximity UUID of a Foundation UUID (same 16 octets in the same order).
    init(_ uuid: UUID) {
        let u = uuid.uuid
        let octets = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
        self.init(octets.reduce(UInt128.zero) { $0 << 8 | UInt128($1) })
    }
}
