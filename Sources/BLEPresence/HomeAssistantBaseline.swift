/// A baseline after Home Assistant's Bluetooth integration: stick to a scanner until another is
/// 16 dB stronger.
///
/// Parameters from Home Assistant's repositories and docs (facts gathered in
/// `shared/research/fleets.md`): a device is attributed to the scanner that hears it best, but
/// switches to another scanner only when that one is at least 16 dB stronger
/// (`ADV_RSSI_SWITCH_THRESHOLD`) than the current scanner's latest RSSI, or when the current
/// scanner's latest advertisement has gone stale; a device goes stale after 195 s (connectable;
/// 900 s is the fallback), and then is in no zone. The identity's zone is its scanner's zone.
public struct HomeAssistantBaseline: PresenceAlgorithm {
    /// Home Assistant's published values as defaults.
    public struct Parameters: Hashable, Sendable, Codable {
        /// dB by which a new scanner's reading must beat the current scanner's latest (Home
        /// Assistant: 16 dB).
        public var switchThreshold: Double
        /// Seconds after which a scanner's latest reading, or the device, is stale (Home
        /// Assistant: 195 s for a connectable device).
        public var staleAfter: Double

        /// Home Assistant's defaults, any of which may be overridden.
        public init(switchThreshold: Double = 16, staleAfter: Double = 195) {
            self.switchThreshold = switchThreshold
            self.staleAfter = staleAfter
        }
    }

    struct Tracked: Sendable {
        var latest: [String: (time: Double, rssi: Int)] = [:]
        var scanner: String
        var lastHeard: Double
    }

    /// "home-assistant" unless named otherwise.
    public var name: String
    /// Where the scanners stand.
    public var zoneMap: ZoneMap
    /// Switch threshold and stale time.
    public var parameters: Parameters
    private var tracked: [String: Tracked] = [:]

    /// A baseline placing scanners by `zoneMap` with Home Assistant's `parameters`.
    public init(zoneMap: ZoneMap = ZoneMap(), parameters: Parameters = Parameters(), name: String = "home-assistant") {
        self.zoneMap = zoneMap
        self.parameters = parameters
        self.name = name
    }

    /// Records the reading and switches scanner if the rule allows.
    public mutating func observe(_ observation: PresenceObservation) -> [PresenceEvent] {
        let identity = observation.identity
        let time = observation.time
        guard var state = tracked[identity] else {
            var state = Tracked(scanner: observation.gateway, lastHeard: time)
            state.latest[observation.gateway] = (time, observation.rssi)
            tracked[identity] = state
            return PresenceEvent.transition(identity: identity, from: nil, to: zoneMap.zone(of: observation.gateway), at: time)
        }
        state.latest[observation.gateway] = (time, observation.rssi)
        state.lastHeard = time
        let previous = state.scanner
        if observation.gateway != previous {
            let current = state.latest[previous]
            let currentIsStale = current.map { time - $0.time >= parameters.staleAfter } ?? true
            let lead = Double(observation.rssi) - Double(current?.rssi ?? Int.min / 2)
            if currentIsStale || lead >= parameters.switchThreshold { state.scanner = observation.gateway }
        }
        tracked[identity] = state
        return PresenceEvent.transition(
            identity: identity, from: zoneMap.zone(of: previous), to: zoneMap.zone(of: state.scanner), at: time)
    }

    /// Puts every device that has gone stale at `time` in no zone.
    public mutating func advance(to time: Double) -> [PresenceEvent] {
        var events: [PresenceEvent] = []
        for identity in tracked.keys.sorted() {
            guard let state = tracked[identity], time - state.lastHeard >= parameters.staleAfter else { continue }
            tracked[identity] = nil
            events += PresenceEvent.transition(identity: identity, from: zoneMap.zone(of: state.scanner), to: nil, at: time)
        }
        return events
    }

    /// The zone `identity` is reported in now.
    public func zone(of identity: String) -> String? {
        tracked[identity].map { zoneMap.zone(of: $0.scanner) }
    }
}
