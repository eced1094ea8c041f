/// What a ``BeaconMonitor`` reports, each with the time it happened: a detection's time
/// for entries, the end of the exit period for exits.
public enum MonitorEvent: Hashable, Sendable {
    /// The device entered `region`: a beacon of it was heard while the region's state was
    /// not inside (`locationManager(_:didEnterRegion:)`).
    case didEnter(BeaconRegion, at: BeaconTime)
    /// The device left `region`: none of its beacons heard for the exit period
    /// (`locationManager(_:didExitRegion:)`).
    case didExit(BeaconRegion, at: BeaconTime)
    /// The region's state, on every transition and when asked for
    /// (`locationManager(_:didDetermineState:for:)`).
    case didDetermineState(RegionState, for: BeaconRegion, at: BeaconTime)

    /// The region the event is about.
    public var region: BeaconRegion {
        switch self {
        case let .didEnter(region, _), let .didExit(region, _), let .didDetermineState(_, region, _): return region
        }
    }

    /// When it happened.
    public var time: BeaconTime {
        switch self {
        case let .didEnter(_, time), let .didExit(_, time), let .didDetermineState(_, _, time): return time
        }
    }
}

/// How a ``BeaconMonitor`` decides and limits.
public struct MonitoringConfiguration: Hashable, Sendable {
    /// How long no beacon of a region may be heard before the device is outside it
    /// (default 30 s, about what iOS waits).
    public var exitPeriod: Duration
    /// The most regions monitored at once (default 20, Core Location's per-app limit).
    public var regionLimit: Int
    /// How late a departure's exit comes after the exit period, and whether it comes at all
    /// (default ``ExitTiming/punctual``: exactly one exit period after the last packet).
    public var exitTiming: ExitTiming

    /// A configuration; every parameter has its documented default.
    public init(exitPeriod: Duration = .seconds(30), regionLimit: Int = 20, exitTiming: ExitTiming = .punctual) {
        self.exitPeriod = exitPeriod
        self.regionLimit = regionLimit
        self.exitTiming = exitTiming
    }
}

/// The region monitoring core (sans-IO), following Core Location's rules for beacon
/// regions: fed detections of iBeacons and timer ticks with their times, it returns
/// enter, exit and state events.
///
/// - A region starts ``RegionState/unknown``.
/// - The first detection of one of its beacons while not inside enters it: events
///   `didDetermineState(.inside)` then `didEnter`, at the detection's time.
/// - When none of its beacons has been heard for the exit period (default 30 s) an inside
///   region is left — `didDetermineState(.outside)` then `didExit`, at the end of the
///   period — and an unknown region becomes outside with `didDetermineState(.outside)`
///   only, since it was never entered. Core Location documents both calls on a transition
///   but not their order; state first is this core's choice.
/// - A detection exactly at the end of the exit period keeps the region inside.
/// - With an ``ExitTiming`` other than punctual, each stay draws from the seed how late its
///   exit comes when the region is entered, and whether it is missed when it falls due. A
///   missed exit leaves the region inside, silently — `requestState` answers inside, and
///   the next beacon of it heard is no entry — until a later departure is reported (iOS
///   research §7 and §9, rule 21; iOS reports no exit at all in some trials, Radius
///   Networks 2015 and 2017).
/// - With the radio off (``radioSwitchedOff(at:)``) every region is unknown and nothing is
///   reported: no exit, no state, no answer to ``requestState(for:at:)``. Back on
///   (``radioSwitchedOn(at:)``), each region is determined again from what is heard, with
///   `didDetermineState` only: neither `didEnter` nor `didExit` for that first
///   determination (iOS with Bluetooth switched off, as observed in Stack Overflow answer
///   34062216; iOS research §7 and §9, rule 22).
///
/// Call ``tick(at:)`` at ``nextDeadline`` (or on a regular timer); detections also apply
/// any exits that fell due before them, so a late tick never loses an exit.
public struct BeaconMonitor: Sendable {
    /// The configuration given at creation.
    public let configuration: MonitoringConfiguration

    private struct Entry: Sendable {
        var region: BeaconRegion
        var state: RegionState
        var startedAt: BeaconTime
        var lastDetected: BeaconTime?
        /// The radio came back on since the region was last determined: its next
        /// determination reports the state alone.
        var quiet = false
        /// How long after the last detection the current stay's exit falls due, in
        /// microseconds: the exit period, or more for a late exit (drawn at the entry).
        var exitDelay: Int64 = 0
        /// The current stay's exit fell due and was missed: the region stays inside, with no
        /// deadline, until one of its beacons is heard again.
        var exitMissed = false
    }

    private var entries: [Entry] = []
    private var draws: ExitDraws

    /// Whether the radio is on (``radioSwitchedOff(at:)``, ``radioSwitchedOn(at:)``).
    public private(set) var isRadioOn = true

    /// A monitor with `configuration` and no region.
    public init(configuration: MonitoringConfiguration = MonitoringConfiguration()) {
        self.configuration = configuration
        draws = ExitDraws(seed: configuration.exitTiming.seed)
    }

    /// The regions monitored, in the order they were started (`monitoredRegions`).
    public var monitoredRegions: [BeaconRegion] { entries.map(\.region) }

    /// Starts monitoring `region` at `now`, in the unknown state. A region with the same
    /// identifier is replaced (and starts over); otherwise a region beyond the limit is
    /// refused with ``BeaconMonitoringError/regionLimitReached(limit:)``.
    public mutating func startMonitoring(_ region: BeaconRegion, at now: BeaconTime) throws(BeaconMonitoringError) {
        let entry = Entry(region: region, state: .unknown, startedAt: now, lastDetected: nil)
        if let index = entries.firstIndex(where: { $0.region.identifier == region.identifier }) {
            entries[index] = entry
            return
        }
        guard entries.count < configuration.regionLimit else {
            throw .regionLimitReached(limit: configuration.regionLimit)
        }
        entries.append(entry)
    }

    /// Stops monitoring the region named `identifier`; no event is reported.
    public mutating func stopMonitoring(identifier: String) {
        entries.removeAll { $0.region.identifier == identifier }
    }

    /// Stops monitoring the region with `region`'s identifier.
    public mutating func stopMonitoring(_ region: BeaconRegion) { stopMonitoring(identifier: region.identifier) }

    /// The state of the region named `identifier` as last determined, or `nil` when it is
    /// not monitored. Does not apply exits that have fallen due; ``requestState(for:at:)`` does.
    public func state(of identifier: String) -> RegionState? {
        entries.first { $0.region.identifier == identifier }?.state
    }

    /// Core Location's `requestState(for:)`: exits due by `now` first, then the region's
    /// `didDetermineState` at `now`. Nothing for a region not monitored.
    public mutating func requestState(for identifier: String, at now: BeaconTime) -> [MonitorEvent] {
        guard isRadioOn else { return [] }
        var events = expire(through: now, inclusive: true)
        if let entry = entries.first(where: { $0.region.identifier == identifier }) {
            events.append(.didDetermineState(entry.state, for: entry.region, at: now))
        }
        return events
    }

    /// The iBeacon `identity` was heard at `time`: exits due before `time`, then an entry
    /// into every monitored region that covers it and is not inside.
    public mutating func detected(_ identity: IBeaconIdentity, at time: BeaconTime) -> [MonitorEvent] {
        guard isRadioOn else { return [] }
        var events = expire(through: time, inclusive: false)
        for index in entries.indices where entries[index].region.contains(identity) {
            entries[index].lastDetected = max(entries[index].lastDetected ?? time, time)
            if entries[index].exitMissed {
                // Heard again after a missed exit: still inside, and the next departure counts.
                entries[index].exitMissed = false
                entries[index].exitDelay = drawExitDelay()
            }
            guard entries[index].state != .inside else { continue }
            entries[index].state = .inside
            entries[index].exitDelay = drawExitDelay()
            events.append(.didDetermineState(.inside, for: entries[index].region, at: time))
            if !entries[index].quiet { events.append(.didEnter(entries[index].region, at: time)) }
            entries[index].quiet = false
        }
        return events
    }

    /// The timer fired at `now`: every exit due by then (at or before `now`), oldest first.
    public mutating func tick(at now: BeaconTime) -> [MonitorEvent] {
        guard isRadioOn else { return [] }
        return expire(through: now, inclusive: true)
    }

    /// When the next exit (or unknown → outside) falls due, or `nil` when none can (none
    /// while the radio is off).
    public var nextDeadline: BeaconTime? {
        guard isRadioOn else { return nil }
        return entries.compactMap(deadline(of:)).min()
    }

    /// The radio was switched off at `now` (Bluetooth off in Settings): every region's state
    /// becomes unknown, silently, and nothing is reported until ``radioSwitchedOn(at:)``.
    /// Exits that fell due before `now` are not reported either: iOS stops region events
    /// with Bluetooth.
    public mutating func radioSwitchedOff(at now: BeaconTime) {
        isRadioOn = false
        for index in entries.indices {
            entries[index].state = .unknown
            entries[index].lastDetected = nil
            entries[index].exitMissed = false
        }
    }

    /// The radio was switched on again at `now`: each region, unknown, is determined afresh,
    /// inside at its first beacon heard or outside after an exit period without one, and
    /// that determination reports `didDetermineState` alone, never `didEnter` or `didExit`.
    public mutating func radioSwitchedOn(at now: BeaconTime) {
        guard !isRadioOn else { return }
        isRadioOn = true
        for index in entries.indices {
            entries[index] = Entry(region: entries[index].region, state: .unknown, startedAt: now, lastDetected: nil, quiet: true)
        }
    }

    private func deadline(of entry: Entry) -> BeaconTime? {
        let period = configuration.exitPeriod.beaconMicroseconds
        switch entry.state {
        case .inside: return entry.exitMissed ? nil : (entry.lastDetected ?? entry.startedAt) &+ entry.exitDelay
        case .unknown: return entry.startedAt &+ period
        case .outside: return nil
        }
    }

    private mutating func expire(through now: BeaconTime, inclusive: Bool) -> [MonitorEvent] {
        var due: [(time: BeaconTime, index: Int)] = []
        for index in entries.indices {
            guard let deadline = deadline(of: entries[index]) else { continue }
            if deadline < now || (inclusive && deadline == now) { due.append((deadline, index)) }
        }
        due.sort { ($0.time, $0.index) < ($1.time, $1.index) }
        var events: [MonitorEvent] = []
        for (time, index) in due {
            let wasInside = entries[index].state == .inside
            if wasInside, draws.happens(configuration.exitTiming.missProbability) {
                entries[index].exitMissed = true
                continue
            }
            entries[index].state = .outside
            entries[index].quiet = false
            events.append(.didDetermineState(.outside, for: entries[index].region, at: time))
            if wasInside { events.append(.didExit(entries[index].region, at: time)) }
        }
        return events
    }
}

extension BeaconMonitor {
    /// The delay of the next departure's exit after its last detection, in microseconds:
    /// the exit period, later by a draw from ``ExitTiming/lateBy`` for a late one.
    private mutating func drawExitDelay() -> Int64 {
        let timing = configuration.exitTiming
        let period = configuration.exitPeriod.beaconMicroseconds
        guard draws.happens(timing.lateProbability) else { return period }
        return period &+ draws.microseconds(in: timing.lateBy)
    }

    /// An iBeacon frame was heard at `time`.
    public mutating func detected(_ frame: IBeacon, at time: BeaconTime) -> [MonitorEvent] {
        detected(frame.identity, at: time)
    }

    /// A beacon frame was heard at `time`; only iBeacons belong to beacon regions, so other
    /// frames only apply the exits due before `time`.
    public mutating func detected(_ frame: BeaconFrame, at time: BeaconTime) -> [MonitorEvent] {
        if case let .iBeacon(beacon) = frame { return detected(beacon.identity, at: time) }
        return expire(through: time, inclusive: false)
    }
}
