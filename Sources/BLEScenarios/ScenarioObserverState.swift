import BLEBeacons
import BLEController
import BLEWorld

/// One observing device's beacon cores and bookkeeping: a ``BeaconMonitor`` for its
/// regions, a ``BeaconRanger`` for their beacons, and what the timeline needs to report
/// changes only (first hearings, proximity classes, the strongest moment of each pass).
/// ``ScenarioRunner`` runs one per observing device; a phone with its own host runs one in
/// its system (`PhoneRegionMonitoring` in `BLE`) on its host's scan, hence `package`.
package struct ScenarioObserverState {
    /// The current pass of one beacon: from when it is heard until it goes quiet.
    struct Pass {
        var strongest: BeaconSighting
        var lastHeard: Microseconds
    }

    /// The observing device's name, for its events.
    package let name: String
    /// The observing device in its world; `nil` for a phone's own monitoring, which
    /// knows no world.
    let device: DeviceID?
    let configuration: ScenarioObserver
    let regions: [BeaconRegion]
    var monitor: BeaconMonitor
    var ranger: BeaconRanger<IBeaconIdentity>
    var heard: Set<IBeaconIdentity> = []
    /// What is known of each beacon by its number (``HeardSenders/number(of:)``), for a
    /// runner that numbers them: ``IdentityFlags`` bits, zero for one never looked at.
    var identityFlags: [UInt8] = []
    /// The last sighting of each beacon, for ranging's reports (kept only when ranging).
    var latest: [IBeaconIdentity: BeaconSighting] = [:]
    var reportedProximity: [IBeaconIdentity: BeaconProximity] = [:]
    var passes: [IBeaconIdentity: Pass] = [:]

    /// An observer named `name` (device `device` of the world, if known) watching what
    /// `configuration` monitors and ranges, its exits as `exitTiming` says (a phone's are
    /// late or missed now and then; any other observer's punctual); nothing is monitored
    /// before ``start(at:)``.
    package init(name: String, device: DeviceID?, configuration: ScenarioObserver, exitTiming: ExitTiming = .punctual) {
        self.name = name
        self.device = device
        self.configuration = configuration
        regions = configuration.regions.compactMap { region in
            try? BeaconRegion(identifier: region.identifier, uuid: ProximityUUID(region.uuid), major: region.major,
                              minor: region.minor)
        }
        let exitPeriod = Duration.microseconds(Int64((configuration.exitPeriodSeconds * 1_000_000).rounded()))
        var monitoring = MonitoringConfiguration(exitPeriod: exitPeriod, regionLimit: max(20, regions.count))
        monitoring.exitTiming = exitTiming
        monitor = BeaconMonitor(configuration: monitoring)
        ranger = BeaconRanger(configuration: Self.rangingConfiguration(configuration))
    }

    /// The observer's filter and distance curve as BLEBeacons' ranging configuration.
    static func rangingConfiguration(_ observer: ScenarioObserver) -> RangingConfiguration {
        let filter: RSSIFilterConfiguration
        switch observer.filter {
        case let .runningAverage(window, trim):
            filter = .runningAverage(window: .microseconds(Int64((window * 1_000_000).rounded())), trimFraction: trim)
        case let .arma(coefficient):
            filter = .arma(coefficient: coefficient)
        }
        let receiver: ReceiverModel = observer.receiver == .nexus5 ? .nexus5 : .simulatedWorld
        return RangingConfiguration(filter: filter, receiver: receiver)
    }

    /// Whether any monitored region covers the beacon.
    package func watches(_ identity: IBeaconIdentity) -> Bool {
        regions.contains { $0.contains(identity) }
    }

    /// The bits of ``identityFlags``.
    enum IdentityFlags {
        /// Whether a region covers the beacon is known.
        static let watchKnown: UInt8 = 1
        /// A region covers the beacon.
        static let watched: UInt8 = 2
        /// The beacon has been heard (``ScenarioTimelineEvent/Kind/firstHeard(_:)`` is behind).
        static let heard: UInt8 = 4
    }

    /// Whether any monitored region covers the beacon `identity`, numbered `number` by its
    /// runner (below `count`): worked out once per beacon, since the regions never change.
    mutating func watches(_ identity: IBeaconIdentity, number: Int, count: Int) -> Bool {
        growFlags(to: max(count, number + 1))
        let flags = identityFlags[number]
        if flags & IdentityFlags.watchKnown != 0 { return flags & IdentityFlags.watched != 0 }
        let watched = watches(identity)
        identityFlags[number] = flags | IdentityFlags.watchKnown | (watched ? IdentityFlags.watched : 0)
        return watched
    }

    private mutating func growFlags(to count: Int) {
        if count > identityFlags.count { identityFlags.append(contentsOf: repeatElement(0, count: count - identityFlags.count)) }
    }

    /// Starts monitoring every region at `time`.
    package mutating func start(at time: Microseconds) {
        for region in regions { try? monitor.startMonitoring(region, at: time) }
    }

    /// Takes one advertisement of a watched beacon; returns the events it causes.
    /// - Parameter number: the beacon's number from ``watches(_:number:count:)``, whose flags
    ///   then say whether it was heard before; `nil` for an observer that numbers none.
    package mutating func receive(_ frame: IBeacon, number: Int? = nil, sighting: BeaconSighting,
                                  at time: Microseconds) -> [ScenarioTimelineEvent.Kind] {
        var events: [ScenarioTimelineEvent.Kind] = []
        let identity = frame.identity
        if let number {
            growFlags(to: number + 1)
            if identityFlags[number] & IdentityFlags.heard == 0 {
                identityFlags[number] |= IdentityFlags.heard
                events.append(.firstHeard(sighting))
            }
        } else if heard.insert(identity).inserted {
            events.append(.firstHeard(sighting))
        }
        for event in monitor.detected(identity, at: time) {
            if case let .didEnter(region, _) = event { events.append(.entered(region: region.identifier)) }
        }
        if configuration.ranges {
            ranger.add(frame, rssi: sighting.rssi, at: time)
            // Only ranging's reports use it: an observer that does not range keeps no
            // sighting per beacon it ever heard (a walker in a city hears thousands).
            latest[identity] = sighting
        }
        // Passes are kept only to be reported: an observer that does not report them (the
        // default) would only drop them again at its ticks, unreported.
        guard configuration.reportsPasses else { return events }
        if let index = passes.index(forKey: identity) {
            if sighting.rssi > passes.values[index].strongest.rssi { passes.values[index].strongest = sighting }
            passes.values[index].lastHeard = time
        } else {
            passes[identity] = Pass(strongest: sighting, lastHeard: time)
        }
        return events
    }

    /// The once-a-second tick at `time`: exits due, proximity changes, passes ended.
    package mutating func tick(at time: Microseconds, quietAfter: Microseconds) -> [ScenarioTimelineEvent] {
        var events: [ScenarioTimelineEvent] = []
        for event in monitor.tick(at: time) {
            if case let .didExit(region, exitTime) = event {
                events.append(ScenarioTimelineEvent(time: exitTime, device: name, kind: .exited(region: region.identifier)))
            }
        }
        if configuration.ranges {
            var listed: Set<IBeaconIdentity> = []
            for beacon in ranger.range(at: time) {
                listed.insert(beacon.identity)
                report(beacon.identity, beacon.proximity, filtered: beacon.filteredRSSI, accuracy: beacon.accuracy,
                       at: time, into: &events)
            }
            // A beacon dropped from the list (quiet for the ranger's removal period) is unknown.
            for identity in reportedProximity.keys.sorted() where !listed.contains(identity) {
                report(identity, .unknown, filtered: nil, accuracy: -1, at: time, into: &events)
            }
        }
        for identity in passes.keys.sorted() {
            guard let pass = passes[identity], time - pass.lastHeard >= quietAfter else { continue }
            passes[identity] = nil
            guard configuration.reportsPasses else { continue }
            events.append(ScenarioTimelineEvent(time: pass.strongest.heardAt, device: name, kind: .passed(pass.strongest)))
        }
        return events
    }

    /// Bluetooth went off or on on the observing phone (its Settings switch, or Airplane
    /// Mode): off, its regions go unknown without an exit and ranging starts over; on, they
    /// are determined afresh, with no entry or exit (``BeaconMonitor/radioSwitchedOff(at:)``).
    package mutating func radioSwitched(on: Bool, at time: Microseconds) {
        if on {
            monitor.radioSwitchedOn(at: time)
        } else {
            monitor.radioSwitchedOff(at: time)
            ranger = BeaconRanger(configuration: Self.rangingConfiguration(configuration))
        }
    }

    private mutating func report(_ identity: IBeaconIdentity, _ proximity: BeaconProximity, filtered: Double?,
                                 accuracy: Double, at time: Microseconds, into events: inout [ScenarioTimelineEvent]) {
        let previous = reportedProximity[identity]
        guard previous != proximity, !(proximity == .unknown && previous == nil), let sighting = latest[identity] else { return }
        reportedProximity[identity] = proximity
        events.append(ScenarioTimelineEvent(time: time, device: name,
                                            kind: .proximity(sighting, proximity, filteredRSSI: filtered, accuracy: accuracy)))
    }
}
