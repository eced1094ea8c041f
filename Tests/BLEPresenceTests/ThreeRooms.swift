import BLEPresence
import Foundation

/// A synthetic flat of three rooms in a row, its receivers and the people walking in it.
///
/// Kitchen x ∈ [0, 5), living room [5, 10), bedroom [10, 15), all y ∈ [0, 4]; the front door is
/// at (0, 2) on the kitchen's west wall and everything else is outside (no zone). One receiver per
/// room, plugged in near a wall. Radio: RSSI = −10 dBm − (40 + 25·log10 d) − 10 dB per interior wall (brick and plaster)
/// − 10 dB for the outer wall − 15 dB when the receiver is behind the person (the body in the way)
/// + Gaussian shadowing with σ = 4 dB, rounded to whole dBm; a receiver hears nothing below
/// −92 dBm and loses each advertisement independently with the person's loss probability.
struct ThreeRooms {
    struct Point {
        var x: Double
        var y: Double
    }

    static let receivers: [(gateway: String, position: Point)] = [
        ("kitchen", Point(x: 0.5, y: 3.5)), ("living", Point(x: 9.5, y: 2)), ("bedroom", Point(x: 14.5, y: 3.5)),
    ]
    static let zoneMap: ZoneMap = ["kitchen": "kitchen", "living": "living", "bedroom": "bedroom"]
    static let sensitivity = -92.0

    /// The room at `point`, or `nil` outside.
    static func zone(at point: Point) -> String? {
        guard point.y >= 0, point.y <= 4, point.x >= 0, point.x < 15 else { return nil }
        return point.x < 5 ? "kitchen" : point.x < 10 ? "living" : "bedroom"
    }

    /// Walls between `a` and `b`: interior walls at x = 5 and x = 10, and the outer wall when
    /// exactly one of them is outside.
    static func wallLoss(_ a: Point, _ b: Point) -> Double {
        let interior = [5.0, 10.0].filter { (a.x < $0) != (b.x < $0) }.count
        let outer = (zone(at: a) == nil) != (zone(at: b) == nil) ? 1 : 0
        return Double(interior) * 10 + Double(outer) * 10
    }

    /// One step of a person's day.
    enum Step {
        /// Walk in a straight line at 1.2 m/s, facing the way they walk.
        case walk(to: Point)
        /// Stand still for `seconds`, facing `facing` (a point they look at).
        case stand(seconds: Double, facing: Point)
        /// Far away, heard by no receiver, for `seconds`; they come back where they left.
        case away(seconds: Double)
    }

    /// A person: where they start, what they do, how their device advertises.
    struct Person {
        var identity: String
        var start: Point
        var steps: [Step]
        /// Seconds between advertisements (0.1–1 s).
        var interval: Double
        /// Probability that one receiver misses one advertisement.
        var loss: Double
    }

    /// Where a person is during one stretch of time.
    struct Segment {
        var start: Double
        var end: Double
        var from: Point
        var to: Point
        var heading: Point
        var away: Bool

        func position(at time: Double) -> Point {
            let share = end > start ? (time - start) / (end - start) : 1
            return Point(x: from.x + (to.x - from.x) * share, y: from.y + (to.y - from.y) * share)
        }
    }

    static func segments(of person: Person, until end: Double) -> [Segment] {
        var segments: [Segment] = []
        var time = 0.0
        var here = person.start
        var heading = Point(x: 1, y: 0)
        for step in person.steps {
            switch step {
            case let .walk(to):
                let distance = hypot(to.x - here.x, to.y - here.y)
                if distance > 0 { heading = Point(x: (to.x - here.x) / distance, y: (to.y - here.y) / distance) }
                segments.append(Segment(start: time, end: time + distance / 1.2, from: here, to: to, heading: heading, away: false))
                time += distance / 1.2
                here = to
            case let .stand(seconds, facing):
                let distance = hypot(facing.x - here.x, facing.y - here.y)
                if distance > 0 { heading = Point(x: (facing.x - here.x) / distance, y: (facing.y - here.y) / distance) }
                segments.append(Segment(start: time, end: time + seconds, from: here, to: here, heading: heading, away: false))
                time += seconds
            case let .away(seconds):
                segments.append(Segment(start: time, end: time + seconds, from: here, to: here, heading: heading, away: true))
                time += seconds
            }
        }
        if time < end {
            segments.append(Segment(start: time, end: end, from: here, to: here, heading: heading, away: false))
        }
        return segments
    }

    /// The RSSI one advertisement arrives with at `receiver`, before the sensitivity cut.
    static func rssi(from position: Point, heading: Point, to receiver: Point, random: inout SplitMix64) -> Double {
        let dx = receiver.x - position.x
        let dy = receiver.y - position.y
        let distance = max(hypot(dx, dy), 0.5)
        let behind = dx * heading.x + dy * heading.y < 0
        return -10 - (40 + 25 * log10(distance)) - wallLoss(position, receiver) - (behind ? 15 : 0) + 4 * random.gaussian()
    }

    /// Every sighting of `people` from 0 to `end` seconds and each one's true zone, sampled every
    /// 0.1 s (a change point at the first sample in the new zone), from one seed.
    static func generate(_ people: [Person], until end: Double, seed: UInt64) -> (observations: [PresenceObservation], truth: [String: ZoneTimeline]) {
        var random = SplitMix64(seed: seed)
        var observations: [PresenceObservation] = []
        var truth: [String: ZoneTimeline] = [:]
        for person in people {
            let segments = segments(of: person, until: end)
            var timeline = ZoneTimeline()
            var index = 0
            for step in 0...Int(end * 10) {
                let time = Double(step) / 10
                while index + 1 < segments.count, segments[index].end <= time { index += 1 }
                let segment = segments[index]
                timeline.set(segment.away ? nil : zone(at: segment.position(at: time)), at: time)
            }
            truth[person.identity] = timeline
            index = 0
            var time = random.uniform() * person.interval
            while time < end {
                while index + 1 < segments.count, segments[index].end <= time { index += 1 }
                let segment = segments[index]
                if !segment.away {
                    let position = segment.position(at: time)
                    for receiver in receivers {
                        let level = rssi(from: position, heading: segment.heading, to: receiver.position, random: &random)
                        guard random.uniform() >= person.loss, level >= sensitivity else { continue }
                        observations.append(PresenceObservation(
                            time: time, identity: person.identity, gateway: receiver.gateway, rssi: Int(level.rounded())))
                    }
                }
                // Advertising interval plus the 0–10 ms random delay the Core specification adds.
                time += person.interval + random.uniform() * 0.01
            }
        }
        observations.sort { ($0.time, $0.identity, $0.gateway) < ($1.time, $1.identity, $1.gateway) }
        return (observations, truth)
    }
}
