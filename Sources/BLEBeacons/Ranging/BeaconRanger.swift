/// How a ``BeaconRanger`` filters, estimates and forgets.
public struct RangingConfiguration: Hashable, Sendable {
    /// The filter each beacon's RSSI goes through (default: 20 s running average, 10 % trim).
    public var filter: RSSIFilterConfiguration
    /// The distance curve (default: the AltBeacon library's Nexus 5 coefficients).
    public var receiver: ReceiverModel
    /// Where proximity changes class (default: +22.5 dB immediate, −7.5 dB near).
    public var proximity: ProximityThresholds
    /// A beacon not heard for this long is listed as unknown, accuracy −1 (default 2 s:
    /// two ranging ticks without a sample, so one advertisement lost or late to a tick
    /// does not flap a beacon that sends once a second).
    public var unknownAfter: Duration
    /// A beacon not heard for this long is no longer listed and its samples are forgotten
    /// (default 10 s).
    public var removeAfter: Duration

    /// A configuration; every parameter has its documented default.
    public init(filter: RSSIFilterConfiguration = .standard, receiver: ReceiverModel = .nexus5,
                proximity: ProximityThresholds = ProximityThresholds(),
                unknownAfter: Duration = .seconds(2), removeAfter: Duration = .seconds(10)) {
        self.filter = filter
        self.receiver = receiver
        self.proximity = proximity
        self.unknownAfter = unknownAfter
        self.removeAfter = removeAfter
    }
}

/// One beacon as a ranging tick reports it, like Core Location's `CLBeacon`.
public struct RangedBeacon<Identity: Hashable & Sendable>: Hashable, Sendable {
    /// Which beacon.
    public var identity: Identity
    /// The mean RSSI of the samples received since the previous tick, rounded to a whole
    /// dBm (`CLBeacon.rssi`); `nil` when none arrived (Core Location reports 0).
    public var rssi: Int?
    /// The filter's value, in dBm; `nil` when the filter has nothing to go on. Reported as
    /// it is even when the beacon is listed as unknown for having gone quiet.
    public var filteredRSSI: Double?
    /// The beacon's latest measured power (RSSI at 1 m), in dBm.
    public var measuredPower: Int8
    /// The estimated distance in metres from the filtered RSSI, or −1 when unknown
    /// (`CLBeacon.accuracy`).
    public var accuracy: Double
    /// The proximity class (`CLBeacon.proximity`).
    public var proximity: BeaconProximity
    /// The tick's time (`CLBeacon.timestamp`).
    public var timestamp: BeaconTime
    /// When the latest sample was received.
    public var lastHeard: BeaconTime
}

/// The ranging core (sans-IO): takes RSSI samples of beacons with their times and, when
/// asked at each tick (once a second, on whatever clock drives it), lists the beacons
/// with their RSSI, filtered RSSI, accuracy and proximity, closest first.
///
/// Listing order is Core Location's: by proximity (immediate, near, far, unknown), then
/// by accuracy, nearest first; ties keep the order beacons were first heard in. A beacon
/// not heard for ``RangingConfiguration/unknownAfter`` is listed as unknown with accuracy
/// −1; after ``RangingConfiguration/removeAfter`` it is dropped and forgotten.
///
/// `Identity` is whatever names a beacon: ``IBeaconIdentity`` for Core Location-style
/// ranging, ``BeaconIdentity`` for every format.
public struct BeaconRanger<Identity: Hashable & Sendable>: Sendable {
    /// The configuration given at creation.
    public let configuration: RangingConfiguration

    private struct Track: Sendable {
        var filter: ConfiguredRSSIFilter
        var measuredPower: Int8
        var lastHeard: BeaconTime
        var order: Int
        var pendingSum = 0
        var pendingCount = 0
    }

    private var tracks: [Identity: Track] = [:]
    private var nextOrder = 0

    /// A ranger with `configuration`.
    public init(configuration: RangingConfiguration = RangingConfiguration()) {
        self.configuration = configuration
    }

    /// Beacons currently tracked (listed or about to be).
    public var trackedCount: Int { tracks.count }

    /// Takes one sample: `identity` heard at `rssi` dBm at `time`, advertising
    /// `measuredPower` at 1 m. An RSSI outside the HCI range −127…+20 dBm (127 means "not
    /// available", Core 5.4, Vol 4, Part E, §7.7.65.2) is ignored.
    public mutating func add(_ identity: Identity, rssi: Int, measuredPower: Int8, at time: BeaconTime) {
        guard (-127 ... 20).contains(rssi) else { return }
        var track: Track
        if let known = tracks.removeValue(forKey: identity) { // removed so the filter's samples are not copied
            track = known
        } else {
            track = Track(filter: configuration.filter.makeFilter(), measuredPower: measuredPower, lastHeard: time, order: nextOrder)
            nextOrder += 1
        }
        track.filter.add(Double(rssi), at: time)
        track.measuredPower = measuredPower
        track.lastHeard = max(track.lastHeard, time)
        track.pendingSum += rssi
        track.pendingCount += 1
        tracks[identity] = track
    }

    /// The tick at `now`: every beacon heard within ``RangingConfiguration/removeAfter``,
    /// closest first. Starts a new "since the previous tick" interval for ``RangedBeacon/rssi``.
    public mutating func range(at now: BeaconTime) -> [RangedBeacon<Identity>] {
        let unknownAfter = configuration.unknownAfter.beaconMicroseconds
        let removeAfter = configuration.removeAfter.beaconMicroseconds
        var listed: [(beacon: RangedBeacon<Identity>, order: Int)] = []
        for identity in Array(tracks.keys) {
            guard var track = tracks[identity] else { continue }
            let silence = now &- track.lastHeard
            if silence >= removeAfter {
                tracks[identity] = nil
                continue
            }
            let rssi = track.pendingCount > 0 ? Self.roundedMean(track.pendingSum, track.pendingCount) : nil
            track.pendingSum = 0
            track.pendingCount = 0
            tracks[identity] = track
            let filtered = track.filter.value(at: now)
            var accuracy = -1.0
            var proximity = BeaconProximity.unknown
            if silence < unknownAfter, let filtered,
               let distance = configuration.receiver.distance(rssi: filtered, measuredPower: Double(track.measuredPower)) {
                accuracy = distance
                proximity = configuration.proximity.proximity(rssi: filtered, measuredPower: Double(track.measuredPower))
            }
            let beacon = RangedBeacon(identity: identity, rssi: rssi, filteredRSSI: filtered, measuredPower: track.measuredPower,
                                      accuracy: accuracy, proximity: proximity, timestamp: now, lastHeard: track.lastHeard)
            listed.append((beacon, track.order))
        }
        listed.sort { lhs, rhs in
            let left = (lhs.beacon.proximity.sortRank, lhs.beacon.accuracy, lhs.order)
            let right = (rhs.beacon.proximity.sortRank, rhs.beacon.accuracy, rhs.order)
            return left < right
        }
        return listed.map(\.beacon)
    }

    /// Forgets one beacon.
    public mutating func remove(_ identity: Identity) { tracks[identity] = nil }

    /// Forgets every beacon.
    public mutating func removeAll() { tracks.removeAll() }

    /// sum / count rounded half away from zero, in integers.
    private static func roundedMean(_ sum: Int, _ count: Int) -> Int {
        let twice = 2 * sum
        return twice >= 0 ? (twice + count) / (2 * count) : -((-twice + count) / (2 * count))
    }
}

extension BeaconRanger where Identity == IBeaconIdentity {
    /// Takes an iBeacon frame heard at `rssi` dBm at `time`.
    public mutating func add(_ frame: IBeacon, rssi: Int, at time: BeaconTime) {
        add(frame.identity, rssi: rssi, measuredPower: frame.measuredPower, at: time)
    }
}

extension BeaconRanger where Identity == BeaconIdentity {
    /// Takes any beacon frame heard at `rssi` dBm at `time`; frames without an identity or
    /// a measured power (Eddystone telemetry) are ignored.
    public mutating func add(_ frame: BeaconFrame, rssi: Int, at time: BeaconTime) {
        guard let identity = frame.identity, let power = frame.measuredPower else { return }
        add(identity, rssi: rssi, measuredPower: power, at: time)
    }
}
