/// A distance in metres (Core Location's `CLLocationDistance`).
public typealias CLLocationDistance = Double

/// An accuracy in metres; negative when unknown (Core Location's `CLLocationAccuracy`).
public typealias CLLocationAccuracy = Double

/// An iBeacon's major value (Core Location's `CLBeaconMajorValue`).
public typealias CLBeaconMajorValue = UInt16

/// An iBeacon's minor value (Core Location's `CLBeaconMinorValue`).
public typealias CLBeaconMinorValue = UInt16

/// How near a ranged beacon is (Core Location's `CLProximity`, same raw values), from
/// BLEBeacons' margins over the beacon's measured power (`ProximityThresholds`).
public enum CLProximity: Int, Sendable, Hashable {
    /// Not determined: the beacon was not heard lately; its accuracy is -1.
    case unknown = 0
    /// Nearly touching the beacon (within about 10 cm).
    case immediate = 1
    /// Within a couple of metres.
    case near = 2
    /// Heard, but further.
    case far = 3
}

/// Whether the device is in a region (Core Location's `CLRegionState`, same raw values).
public enum CLRegionState: Int, Sendable, Hashable {
    /// Not yet determined.
    case unknown = 0
    /// Inside: a beacon of the region was heard within the exit period.
    case inside = 1
    /// Outside: none heard for the exit period.
    case outside = 2
}

/// What the app may do with location services (Core Location's `CLAuthorizationStatus`,
/// same raw values). Off a simulated phone Linux has no permission prompt: a manager is
/// ``authorizedAlways`` from its creation; an app of a simulated iPhone has the status the
/// phone keeps for it (`CLLocationManager.requestAlwaysAuthorization()`).
public enum CLAuthorizationStatus: Int32, Sendable, Hashable {
    /// The user has not chosen yet.
    case notDetermined = 0
    /// Restricted by policy.
    case restricted = 1
    /// Refused by the user.
    case denied = 2
    /// Allowed at any time; what every manager off a simulated phone reports.
    case authorizedAlways = 3
    /// Allowed while the app is in use.
    case authorizedWhenInUse = 4

    /// The old name of ``authorizedAlways``.
    @available(*, deprecated, renamed: "authorizedAlways")
    public static var authorized: CLAuthorizationStatus { .authorizedAlways }
}

/// How accurate the locations an app may have are (Core Location's `CLAccuracyAuthorization`,
/// same raw values): iOS 14's Precise Location switch. Off a simulated phone a manager has
/// ``fullAccuracy``; an app of a simulated iPhone has the accuracy the phone keeps for it
/// (`AppDescription.locationAccuracy`, `CLLocationManager.accuracyAuthorization`).
public enum CLAccuracyAuthorization: Int, Sendable, Hashable {
    /// Precise locations, as accurate as ``CLLocationManager/desiredAccuracy`` asks.
    case fullAccuracy = 0
    /// Approximate locations only (``kCLLocationAccuracyReduced``), and no region monitoring
    /// or beacon ranging.
    case reducedAccuracy = 1
}
