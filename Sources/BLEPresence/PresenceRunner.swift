/// Drives a ``PresenceAlgorithm`` over a recorded list of sightings, as a live system would.
///
/// Sightings are fed in time order; between them the runner calls
/// ``PresenceAlgorithm/advance(to:)`` on a fixed grid of ticks (`start`, `start + tick`, …), the
/// way a gateway's event loop wakes on a timer, so that time-outs fire even when nothing is heard.
public struct PresenceRunner: Hashable, Sendable {
    /// The spacing of `advance` ticks in seconds (default 0.5 s: finer than any window or time-out
    /// of the three algorithms, so their decisions are late by at most half a second).
    public var tick: Double

    /// A runner that ticks every `tick` seconds.
    public init(tick: Double = 0.5) {
        self.tick = tick
    }

    /// What one run produced.
    public struct Run: Hashable, Sendable {
        /// The algorithm's name.
        public var algorithm: String
        /// Every event, in the order the algorithm emitted it.
        public var events: [PresenceEvent]
        /// Each identity's reported zone as a step function of time (from ``events``).
        public var timelines: [String: ZoneTimeline]
    }

    /// Feeds `observations` with time at most `end` (sorted by time, ties kept in list order) and
    /// ticks from `start` to `end` through `algorithm`, which is left in its final state.
    ///
    /// - Returns: The events in emission order.
    public func feed<Algorithm: PresenceAlgorithm>(
        _ algorithm: inout Algorithm, observations: [PresenceObservation], from start: Double, until end: Double
    ) -> [PresenceEvent] {
        let ordered = observations.enumerated()
            .filter { $0.element.time <= end }
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        var events: [PresenceEvent] = []
        var tickIndex = 0
        func nextTick() -> Double? {
            guard tick > 0 else { return nil }
            let time = start + Double(tickIndex) * tick
            return time <= end ? time : nil
        }
        for observation in ordered {
            while let time = nextTick(), time <= observation.time {
                events += algorithm.advance(to: time)
                tickIndex += 1
            }
            events += algorithm.observe(observation)
        }
        while let time = nextTick() {
            events += algorithm.advance(to: time)
            tickIndex += 1
        }
        events += algorithm.advance(to: end)
        return events
    }

    /// Runs a fresh copy of `algorithm` over `observations` from `start` to `end`.
    ///
    /// - Returns: The events and each identity's reported timeline, ready for ``PresenceScorer``.
    public func run<Algorithm: PresenceAlgorithm>(
        _ algorithm: Algorithm, observations: [PresenceObservation], from start: Double, until end: Double
    ) -> Run {
        var algorithm = algorithm
        let events = feed(&algorithm, observations: observations, from: start, until: end)
        return Run(algorithm: algorithm.name, events: events, timelines: ZoneTimeline.timelines(from: events))
    }
}
