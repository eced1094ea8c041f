import BLEBeacons
import BLEController
import BLEWorld

/// One thing an observing device of a scenario noticed, at a simulated time: what a
/// phone running Core Location-style monitoring and ranging would have reported, plus
/// the true geometry the world knows (for tests and for the reader).
public struct ScenarioTimelineEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The first advertisement of a beacon of a monitored region reached the device.
        case firstHeard(BeaconSighting)
        /// Region monitoring entered the region (`didEnterRegion`).
        case entered(region: String)
        /// Region monitoring left the region after its exit period (`didExitRegion`).
        case exited(region: String)
        /// Ranging moved a beacon to another proximity class (`didRangeBeacons`, changes only).
        case proximity(BeaconSighting, BeaconProximity, filteredRSSI: Double?, accuracy: Double)
        /// A beacon was heard strongest at this time; reported once it has gone quiet for
        /// ``ScenarioRunner/quietAfter`` (the moment a rider passed a stop, a bus passed a
        /// stop's phone).
        case passed(BeaconSighting)
        /// A scripted action of the scenario, described in words.
        case action(String)
        /// What a phone's system did with one of its apps: a state change, delegate calls
        /// delivered, a relaunch, an event the app never gets (`BLEPhone`).
        case app(app: String, String)
    }

    /// When, in microseconds of simulated time.
    public var time: Microseconds
    /// The observing device (or the device an action is about).
    public var device: String
    /// What happened.
    public var kind: Kind

    /// An event with every field.
    public init(time: Microseconds, device: String, kind: Kind) {
        self.time = time
        self.device = device
        self.kind = kind
    }

    /// The region of an enter or exit event.
    public var region: String? {
        switch kind {
        case let .entered(region), let .exited(region): return region
        default: return nil
        }
    }

    /// The beacon an event is about, if any.
    public var sighting: BeaconSighting? {
        switch kind {
        case let .firstHeard(sighting), let .proximity(sighting, _, _, _), let .passed(sighting): return sighting
        default: return nil
        }
    }

    /// The proximity class of a proximity event.
    public var proximity: BeaconProximity? {
        if case let .proximity(_, proximity, _, _) = kind { return proximity }
        return nil
    }

    /// The time in seconds.
    public var seconds: Double { Double(time) / 1_000_000 }
}

/// A beacon as one device heard it at one moment.
public struct BeaconSighting: Hashable, Sendable {
    /// The scenario device that sent it (its name), or the identity when no device of the
    /// scenario has the advertiser's address.
    public var beacon: String
    /// The iBeacon identity.
    public var identity: IBeaconIdentity
    /// The RSSI of the advertisement in dBm (for ``ScenarioTimelineEvent/Kind/proximity(_:_:filteredRSSI:accuracy:)``,
    /// that of the latest one).
    public var rssi: Int
    /// The true distance in metres between the two devices when it was received (when
    /// the beacon is quiet, at the last advertisement heard); `nil` if the sender is
    /// not a device of the scenario.
    public var distance: Double?
    /// Where the observing device was then.
    public var observerPosition: Vector3
    /// When that advertisement arrived.
    public var heardAt: Microseconds

    /// A sighting with every field.
    public init(beacon: String, identity: IBeaconIdentity, rssi: Int, distance: Double?, observerPosition: Vector3,
                heardAt: Microseconds) {
        self.beacon = beacon
        self.identity = identity
        self.rssi = rssi
        self.distance = distance
        self.observerPosition = observerPosition
        self.heardAt = heardAt
    }
}

/// One advertisement of a monitored beacon received by an observing device: the raw
/// material of the timeline, kept so tests can check geometry (e.g. that a beacon is never
/// heard beyond some distance).
public struct BeaconReception: Hashable, Sendable {
    /// When it arrived.
    public var time: Microseconds
    /// The observing device.
    public var observer: String
    /// The sender, as in ``BeaconSighting/beacon``.
    public var beacon: String
    /// The iBeacon identity.
    public var identity: IBeaconIdentity
    /// The RSSI in dBm.
    public var rssi: Int
    /// Where the observer was.
    public var observerPosition: Vector3
    /// Where the sender was, if it is a device of the scenario.
    public var beaconPosition: Vector3?

    /// A reception with every field.
    public init(time: Microseconds, observer: String, beacon: String, identity: IBeaconIdentity, rssi: Int,
                observerPosition: Vector3, beaconPosition: Vector3?) {
        self.time = time
        self.observer = observer
        self.beacon = beacon
        self.identity = identity
        self.rssi = rssi
        self.observerPosition = observerPosition
        self.beaconPosition = beaconPosition
    }

    /// The distance between the two devices, when the sender is known.
    public var distance: Double? { beaconPosition.map { Vector3.distance($0, observerPosition) } }
}
