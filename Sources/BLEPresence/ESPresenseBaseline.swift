#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A baseline after ESPresense's published filter: the nearest receiver by a 15 s RSSI median.
///
/// Parameters from ESPresense's repositories and docs (facts gathered in
/// `shared/research/fleets.md`): each receiver filters a device's RSSI by the median over a
/// 15 s window holding up to 200 readings; distance is 10^((rssi@1m − rssi) / 27), so with one
/// reference power for every receiver the nearest receiver is the one with the highest median
/// RSSI; a reading farther than the maximum distance, 16 m, is not reported (computed with the
/// device's announced power at 1 m, −59 dBm when it announces none); a device is forgotten
/// after 150 s with no reading. The identity is placed in the zone of
/// the receiver with the highest median; when every window is empty but 150 s have not passed it
/// keeps its last zone, the "stale present" ESPresense users report. It re-decides on every
/// reading and tick rather than on ESPresense's 5 s reports, which only makes it more responsive.
public struct ESPresenseBaseline: PresenceAlgorithm {
    /// ESPresense's published values as defaults.
    public struct Parameters: Hashable, Sendable, Codable {
        /// Median window in seconds (ESPresense: 15 s).
        public var window: Double
        /// Readings kept per window (ESPresense: at most 200).
        public var maximumReadings: Int
        /// Seconds without a reading after which the device is forgotten (ESPresense: 150 s).
        public var forgetAfter: Double
        /// Readings estimated farther than this many metres are dropped (ESPresense: 16 m).
        public var maximumDistance: Double
        /// The path-loss exponent of its distance estimate (ESPresense: 2.7).
        public var pathLossExponent: Double
        /// The RSSI at 1 m assumed for a device that announces none (ESPresense: −59 dBm).
        public var defaultReferencePower: Int

        /// ESPresense's defaults, any of which may be overridden.
        public init(window: Double = 15, maximumReadings: Int = 200, forgetAfter: Double = 150, maximumDistance: Double = 16,
                    pathLossExponent: Double = 2.7, defaultReferencePower: Int = -59) {
            self.window = window
            self.maximumReadings = maximumReadings
            self.forgetAfter = forgetAfter
            self.maximumDistance = maximumDistance
            self.pathLossExponent = pathLossExponent
            self.defaultReferencePower = defaultReferencePower
        }

        /// ESPresense's distance estimate, 10^((rssi@1m − rssi) / (10 · exponent)), in metres.
        public func distance(rssi: Int, referencePower: Int?) -> Double {
            let reference = Double(referencePower ?? defaultReferencePower)
            return pow(10, (reference - Double(rssi)) / (10 * pathLossExponent))
        }
    }

    struct Tracked: Sendable {
        var windows: [String: RSSIWindow] = [:]
        var zone: String?
        var lastHeard: Double
    }

    /// "espresense" unless named otherwise.
    public var name: String
    /// Where the receivers stand.
    public var zoneMap: ZoneMap
    /// Window, capacity and forget time.
    public var parameters: Parameters
    private var tracked: [String: Tracked] = [:]

    /// A baseline placing receivers by `zoneMap` with ESPresense's `parameters`.
    public init(zoneMap: ZoneMap = ZoneMap(), parameters: Parameters = Parameters(), name: String = "espresense") {
        self.zoneMap = zoneMap
        self.parameters = parameters
        self.name = name
    }

    /// Adds the reading to its receiver's window and re-picks the nearest receiver.
    public mutating func observe(_ observation: PresenceObservation) -> [PresenceEvent] {
        guard parameters.distance(rssi: observation.rssi, referencePower: observation.referencePower) <= parameters.maximumDistance else {
            return []
        }
        var state = tracked[observation.identity] ?? Tracked(lastHeard: observation.time)
        state.windows[observation.gateway, default: RSSIWindow(capacity: parameters.maximumReadings)]
            .append(time: observation.time, rssi: observation.rssi)
        state.lastHeard = observation.time
        tracked[observation.identity] = state
        return decide(observation.identity, at: observation.time)
    }

    /// Re-picks every identity's receiver at `time` and forgets the silent ones.
    public mutating func advance(to time: Double) -> [PresenceEvent] {
        tracked.keys.sorted().flatMap { decide($0, at: time) }
    }

    /// The zone `identity` is reported in now.
    public func zone(of identity: String) -> String? {
        tracked[identity]?.zone
    }

    private mutating func decide(_ identity: String, at time: Double) -> [PresenceEvent] {
        guard var state = tracked[identity] else { return [] }
        if time - state.lastHeard >= parameters.forgetAfter {
            tracked[identity] = nil
            return PresenceEvent.transition(identity: identity, from: state.zone, to: nil, at: time)
        }
        for gateway in state.windows.keys {
            state.windows[gateway]?.prune(before: time - parameters.window)
        }
        state.windows = state.windows.filter { !$0.value.isEmpty }
        defer { tracked[identity] = state }
        let scores = ZoneScores.scores(of: state.windows, zoneMap: zoneMap, statistic: .median)
        guard let best = ZoneScores.best(of: scores, current: state.zone), best.zone != state.zone else { return [] }
        let previous = state.zone
        state.zone = best.zone
        return PresenceEvent.transition(identity: identity, from: previous, to: best.zone, at: time)
    }
}

