/// Our presence algorithm: short RSSI windows, a hysteresis margin, a dwell time and a short
/// absence time-out.
///
/// Per identity and gateway it keeps the last ``Parameters-swift.struct/window`` seconds of RSSI.
/// A zone's score is the best score among its gateways, a gateway's score being its window under
/// ``Parameters-swift.struct/statistic``. The identity moves to another zone only when that zone
/// leads the current one by at least ``Parameters-swift.struct/margin`` dB without a break for
/// ``Parameters-swift.struct/dwell`` seconds (a current zone none of whose gateways heard it in
/// the window scores −∞), or at once when it leads by ``Parameters-swift.struct/decisiveLead`` dB
/// over the last ``Parameters-swift.struct/fastWindow`` seconds. When nothing has been heard of it for
/// ``Parameters-swift.struct/absenceTimeout`` seconds it exits to no zone; a shorter silence
/// (packet loss, a phone's scan pause) changes nothing. A sighting weaker than
/// ``Parameters-swift.struct/minimumRSSI`` is not presence: a receiver that hears a device far
/// off, through a wall or a shop window, does not hold it in the zone.
///
/// Compared with the baselines: ESPresense switches as soon as another receiver's 15 s median is
/// higher, so a body between the device and its own receiver moves it (flaps); Home Assistant
/// needs a 16 dB lead, so real moves between neighbouring rooms are late or never seen; and both
/// keep a device that left for 150 s or 195 s. The margin and dwell here sit between those, and
/// the time-out is an order of magnitude shorter (see docs/presence.md for the measurements).
public struct HysteresisPresence: PresenceAlgorithm {
    /// The tunable values; the defaults are the ones measured best on the synthetic three rooms.
    public struct Parameters: Hashable, Sendable, Codable {
        /// Length of each gateway's RSSI window in seconds (default 5 s: on the synthetic rooms 3 s
        /// flapped 18–23 times an hour, 6–8 s delayed entries by 13–34 s at the 95th percentile).
        public var window: Double
        /// How a window becomes a score (default the median: on the synthetic rooms it flapped 2.3
        /// times an hour against 3.7 for the mean of the strongest half; the plain mean tied, and
        /// the median is kept because one outlying sample cannot move it; see docs/presence.md).
        public var statistic: RSSIStatistic
        /// How many dB another zone must lead the current one by (default 6 dB: above the spread
        /// of a short window's score, below a neighbouring room's real lead).
        public var margin: Double
        /// How long in seconds the lead must last without a break (default 1.5 s; 1 s doubled the
        /// flaps, 2 s only added entry lag).
        public var dwell: Double
        /// A lead of at least this many dB over the last ``fastWindow`` seconds, the current zone
        /// included, moves the identity at once without the dwell (default 15 dB: walking through a
        /// doorway with the old room's receiver behind produces 20 dB and more; 12 dB let noise
        /// through twice as often). It lets a person who walks in and turns round be placed before turning.
        public var decisiveLead: Double
        /// Seconds of the most recent samples the decisive lead is measured on (default 1.5 s),
        /// so that the old room's strong samples still in the main window do not hide it.
        public var fastWindow: Double
        /// Seconds of silence after which the identity exits to no zone (default 15 s, against
        /// 150 s for ESPresense and 195 s for Home Assistant; 20 s scored the same with 5 s more
        /// exit lag, and a 1 Hz device losing a fifth of its packets is silent 15 s about never).
        public var absenceTimeout: Double
        /// Sightings weaker than this many dBm are ignored; `nil`, the default, keeps every
        /// sighting. A deployment sets it from its tags: `ble presence score` uses −90 dBm, where a
        /// tag announcing −59 dBm at 1 m is heard out to about 17 m in the open (exponent 2.5).
        public var minimumRSSI: Double?

        /// Parameters with the measured defaults, any of which may be overridden.
        public init(
            window: Double = 5, statistic: RSSIStatistic = .median, margin: Double = 6,
            dwell: Double = 1.5, decisiveLead: Double = 15, fastWindow: Double = 1.5,
            absenceTimeout: Double = 15, minimumRSSI: Double? = nil
        ) {
            self.window = window
            self.statistic = statistic
            self.margin = margin
            self.dwell = dwell
            self.decisiveLead = decisiveLead
            self.fastWindow = fastWindow
            self.absenceTimeout = absenceTimeout
            self.minimumRSSI = minimumRSSI
        }
    }

    /// What it knows of one identity.
    struct Tracked: Sendable {
        var windows: [String: RSSIWindow] = [:]
        var zone: String?
        var challenger: String?
        var challengerSince = 0.0
        var lastHeard: Double
    }

    /// "hysteresis" unless named otherwise.
    public var name: String
    /// Where the gateways stand.
    public var zoneMap: ZoneMap
    /// Windows, margin, dwell and time-out.
    public var parameters: Parameters
    private var tracked: [String: Tracked] = [:]

    /// An algorithm placing gateways by `zoneMap`, tuned by `parameters`.
    public init(zoneMap: ZoneMap = ZoneMap(), parameters: Parameters = Parameters(), name: String = "hysteresis") {
        self.zoneMap = zoneMap
        self.parameters = parameters
        self.name = name
    }

    /// Adds the sighting to its gateway's window and re-decides the identity's zone.
    public mutating func observe(_ observation: PresenceObservation) -> [PresenceEvent] {
        if let floor = parameters.minimumRSSI, Double(observation.rssi) < floor { return [] }
        var state = tracked[observation.identity] ?? Tracked(lastHeard: observation.time)
        state.windows[observation.gateway, default: RSSIWindow()].append(time: observation.time, rssi: observation.rssi)
        state.lastHeard = observation.time
        tracked[observation.identity] = state
        return decide(observation.identity, at: observation.time)
    }

    /// Re-decides every identity's zone at `time` (dwell times, absence time-outs).
    public mutating func advance(to time: Double) -> [PresenceEvent] {
        tracked.keys.sorted().flatMap { decide($0, at: time) }
    }

    /// The zone `identity` is reported in now.
    public func zone(of identity: String) -> String? {
        tracked[identity]?.zone
    }

    private mutating func decide(_ identity: String, at time: Double) -> [PresenceEvent] {
        guard var state = tracked[identity] else { return [] }
        if time - state.lastHeard >= parameters.absenceTimeout {
            tracked[identity] = nil
            return PresenceEvent.transition(identity: identity, from: state.zone, to: nil, at: time)
        }
        for gateway in state.windows.keys {
            state.windows[gateway]?.prune(before: time - parameters.window)
        }
        state.windows = state.windows.filter { !$0.value.isEmpty }
        defer { tracked[identity] = state }
        let scores = ZoneScores.scores(of: state.windows, zoneMap: zoneMap, statistic: parameters.statistic)
        // An empty window everywhere is a short gap: hold the zone until the absence time-out.
        guard let best = ZoneScores.best(of: scores, current: state.zone), best.zone != state.zone else {
            state.challenger = nil
            return []
        }
        if let decisive = decisiveLeader(state, at: time), decisive != state.zone {
            return move(&state, identity, to: decisive, at: time)
        }
        let currentScore = state.zone.flatMap { scores[$0] } ?? -.infinity
        guard best.score - currentScore >= parameters.margin else {
            state.challenger = nil
            return []
        }
        if state.challenger != best.zone {
            state.challenger = best.zone
            state.challengerSince = time
        }
        guard time - state.challengerSince >= parameters.dwell else { return [] }
        return move(&state, identity, to: best.zone, at: time)
    }

    /// The zone leading the current one by the decisive lead over the fast window, if any; only
    /// when the current zone was heard in it too (silence is the absence time-out's business).
    private func decisiveLeader(_ state: Tracked, at time: Double) -> String? {
        guard let current = state.zone else { return nil }
        let fast = ZoneScores.scores(of: state.windows, zoneMap: zoneMap, statistic: parameters.statistic, since: time - parameters.fastWindow)
        guard let currentScore = fast[current], let leader = ZoneScores.best(of: fast, current: current),
            leader.score - currentScore >= parameters.decisiveLead
        else { return nil }
        return leader.zone
    }

    private func move(_ state: inout Tracked, _ identity: String, to zone: String, at time: Double) -> [PresenceEvent] {
        let previous = state.zone
        state.zone = zone
        state.challenger = nil
        return PresenceEvent.transition(identity: identity, from: previous, to: zone, at: time)
    }
}
