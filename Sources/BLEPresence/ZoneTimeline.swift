/// One identity's zone as a step function of time, stored as its change points.
///
/// Used both for what an algorithm reports (built from its ``PresenceEvent``s) and for the truth
/// a scorer compares it with. Before the first change point the zone is `nil` ("no zone"). The
/// function is right-continuous: at a change point's time the zone is already the new one.
/// Consecutive change points always hold different zones, so every stored point is a real change.
public struct ZoneTimeline: Hashable, Sendable, Codable {
    /// A time from which the identity is in `zone` (`nil`: in no zone).
    public struct Change: Hashable, Sendable, Codable {
        /// Seconds.
        public var time: Double
        /// The zone from `time` on, or `nil` for no zone.
        public var zone: String?

        /// The identity is in `zone` from `time` on.
        public init(time: Double, zone: String?) {
            self.time = time
            self.zone = zone
        }
    }

    /// The change points in increasing time order, each to a zone other than the one before.
    public private(set) var changes: [Change] = []

    /// A timeline that is `nil` at all times.
    public init() {}

    /// A timeline from change points, e.g. `[(0, "kitchen"), (10, "hall"), (25, nil)]`.
    ///
    /// Points are taken in time order (their order among equal times is kept, the last one
    /// winning); points that repeat the current zone are dropped.
    public init(_ points: [(time: Double, zone: String?)]) {
        let ordered = points.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        for (_, point) in ordered { set(point.zone, at: point.time) }
    }

    /// Sets the zone from `time` on. `time` must be no earlier than the last change point; a
    /// change at the same time as the last one replaces it.
    public mutating func set(_ zone: String?, at time: Double) {
        if let last = changes.last, last.time >= time {
            changes.removeLast()
        }
        if (changes.last?.zone ?? nil) == zone { return }
        changes.append(Change(time: time, zone: zone))
    }

    /// The zone at `time`: that of the last change point at or before it, `nil` before the first.
    public func zone(at time: Double) -> String? {
        guard let index = lastChangeIndex(atOrBefore: time) else { return nil }
        return changes[index].zone
    }

    /// The index of the last change point at or before `time`, by binary search.
    func lastChangeIndex(atOrBefore time: Double) -> Int? {
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// Every identity's reported timeline, from an algorithm's events in the order it emitted them.
    ///
    /// An entry sets the zone; an exit from the current zone sets no zone (an exit from another
    /// zone changes nothing). An exit and an entry at one time are a single move.
    public static func timelines(from events: [PresenceEvent]) -> [String: ZoneTimeline] {
        var timelines: [String: ZoneTimeline] = [:]
        for event in events {
            var timeline = timelines[event.identity] ?? ZoneTimeline()
            switch event.kind {
            case let .enter(zone):
                timeline.set(zone, at: event.time)
            case let .exit(zone):
                if timeline.zone(at: event.time) == zone { timeline.set(nil, at: event.time) }
            }
            timelines[event.identity] = timeline
        }
        return timelines
    }
}
