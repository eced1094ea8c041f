/// One point of a route and how fast the device travels toward it.
public struct Waypoint: Hashable, Sendable, Codable {
    /// Where the device goes, in metres.
    public var position: Vector3
    /// The speed, in metres per second, on the leg that ends here. A speed of zero or less
    /// ends the route: the device stays where it is.
    public var speed: Double
    /// How long the device stays here before the next leg, in seconds (a bus at its stop).
    public var pause: Double = 0

    /// A waypoint reached at `speed` m/s, where the device stays `pause` seconds.
    public init(position: Vector3, speed: Double, pause: Double = 0) {
        self.position = position
        self.speed = speed
        self.pause = pause
    }

    private enum CodingKeys: String, CodingKey { case position, speed, pause }

    /// Decodes a waypoint; `pause` may be absent (no pause).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        position = try container.decode(Vector3.self, forKey: .position)
        speed = try container.decode(Double.self, forKey: .speed)
        pause = try container.decodeIfPresent(Double.self, forKey: .pause) ?? 0
    }
}

/// A path a device follows at constant speed per leg, e.g. a bus on its route or a walker.
///
/// The device leaves its starting position at time 0 for the first waypoint, then each
/// next one in turn. At the last waypoint it stops, or, if `loops`, it heads back to the
/// first waypoint (at that waypoint's speed) and goes round again.
public struct Route: Hashable, Sendable, Codable {
    /// The points in order.
    public var waypoints: [Waypoint]
    /// Whether the route repeats from the first waypoint after the last.
    public var loops: Bool

    /// A route through `waypoints`.
    public init(waypoints: [Waypoint], loops: Bool = false) {
        self.waypoints = waypoints
        self.loops = loops
    }
}

/// A route turned into timed straight legs, for fast position look-ups.
struct RoutePlan: Sendable {
    struct Leg: Sendable {
        var from: Vector3
        var to: Vector3
        var start: Double
        var duration: Double
    }

    /// Legs from the start to the last waypoint.
    private var legs: [Leg] = []
    /// Legs of one lap (last → first → … → last) when the route loops; empty otherwise.
    private var lap: [Leg] = []
    private var lapDuration: Double = 0
    private var finalPosition: Vector3
    /// The fastest the device moves on this plan, in metres per second: the largest
    /// waypoint speed, so that between two times t₁ and t₂ its position moves at most
    /// speedLimit · |t₂ − t₁| (the legs join end to end, and a looping route's lap starts where
    /// it ends). `nil` when a waypoint's speed or position is not a positive finite number:
    /// such a route stops where it began, a jump no speed bounds.
    private(set) var speedLimit: Double?

    init(start: Vector3, route: Route) {
        finalPosition = start
        var time = 0.0
        var here = start
        let finite = [start.x, start.y, start.z].allSatisfy(\.isFinite)
            && route.waypoints.allSatisfy { [$0.position.x, $0.position.y, $0.position.z, $0.speed].allSatisfy(\.isFinite) }
        if finite, route.waypoints.allSatisfy({ $0.speed > 0 }) {
            speedLimit = route.waypoints.map(\.speed).max() ?? 0
        }
        for waypoint in route.waypoints {
            guard waypoint.speed > 0, waypoint.speed.isFinite else { return }
            let duration = Vector3.distance(here, waypoint.position) / waypoint.speed
            legs.append(Leg(from: here, to: waypoint.position, start: time, duration: duration))
            time += duration
            here = waypoint.position
            if waypoint.pause > 0, waypoint.pause.isFinite {
                legs.append(Leg(from: here, to: here, start: time, duration: waypoint.pause))
                time += waypoint.pause
            }
        }
        finalPosition = here
        guard route.loops, !route.waypoints.isEmpty else { return }
        // One lap: last → first, then first → second → … → last.
        var lapTime = 0.0
        var previous = here
        for waypoint in route.waypoints {
            let duration = Vector3.distance(previous, waypoint.position) / waypoint.speed
            lap.append(Leg(from: previous, to: waypoint.position, start: time + lapTime, duration: duration))
            lapTime += duration
            previous = waypoint.position
            if waypoint.pause > 0, waypoint.pause.isFinite {
                lap.append(Leg(from: previous, to: previous, start: time + lapTime, duration: waypoint.pause))
                lapTime += waypoint.pause
            }
        }
        lapDuration = lapTime
        if lapDuration <= 0 { lap = [] }
    }

    /// The position `seconds` after the world started.
    func position(at seconds: Double) -> Vector3 {
        if seconds <= 0, let first = legs.first { return first.from }
        if let leg = Self.leg(in: legs, at: seconds) { return Self.place(leg, seconds) }
        guard !lap.isEmpty, let lapStart = lap.first?.start else { return finalPosition }
        let into = (seconds - lapStart).truncatingRemainder(dividingBy: lapDuration)
        let time = lapStart + Swift.max(0, into)
        if let leg = Self.leg(in: lap, at: time) { return Self.place(leg, time) }
        return finalPosition
    }

    /// The horizontal direction of travel `seconds` after the world started: that of the
    /// leg under way, else of the last leg travelled; `nil` before any leg with a
    /// horizontal extent (a device that has not moved sideways has no direction yet).
    func direction(at seconds: Double) -> Vector3? {
        var time = seconds
        var candidates = legs
        if let lapStart = lap.first?.start, seconds >= lapStart, lapDuration > 0 {
            time = lapStart + Swift.max(0, (seconds - lapStart).truncatingRemainder(dividingBy: lapDuration))
            candidates = legs + lap
        }
        var latest: Vector3?
        for leg in candidates where leg.start <= time {
            let delta = leg.to - leg.from
            if delta.x != 0 || delta.y != 0 { latest = delta }
        }
        return latest
    }

    private static func leg(in legs: [Leg], at time: Double) -> Leg? {
        for leg in legs where time < leg.start + leg.duration {
            return time >= leg.start ? leg : nil
        }
        return nil
    }

    private static func place(_ leg: Leg, _ time: Double) -> Vector3 {
        guard leg.duration > 0 else { return leg.to }
        return Vector3.interpolate(leg.from, leg.to, (time - leg.start) / leg.duration)
    }
}
