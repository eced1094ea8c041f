/// The solid an obstacle occupies. Cylinders stand upright: their axis is vertical (`z`).
public enum ObstacleShape: Hashable, Sendable, Codable {
    /// An axis-aligned box between two corners (a wall, a bus body, a shelf).
    case box(min: Vector3, max: Vector3)
    /// An upright cylinder from `base` up by `height` (a pillar, a person).
    case cylinder(base: Vector3, radius: Double, height: Double)
    /// A sphere.
    case sphere(center: Vector3, radius: Double)

    /// Whether the segment from `a` to `b` passes through the solid over a stretch of
    /// positive length (grazing a surface does not count; an end inside does).
    public func intersectsSegment(from a: Vector3, to b: Vector3) -> Bool {
        var interval = (low: 0.0, high: 1.0)
        let d = b - a
        switch self {
        case let .box(min, max):
            guard Self.clipSlab(&interval, origin: a.x, delta: d.x, min.x, max.x),
                  Self.clipSlab(&interval, origin: a.y, delta: d.y, min.y, max.y),
                  Self.clipSlab(&interval, origin: a.z, delta: d.z, min.z, max.z) else { return false }
        case let .cylinder(base, radius, height):
            guard Self.clipSlab(&interval, origin: a.z, delta: d.z, base.z, base.z + height) else { return false }
            // Horizontal disc: |(a + t d) − base|² ≤ r² in x and y.
            let ox = a.x - base.x, oy = a.y - base.y
            guard Self.clipQuadratic(&interval, qa: d.x * d.x + d.y * d.y, qb: 2 * (ox * d.x + oy * d.y),
                                     qc: ox * ox + oy * oy - radius * radius) else { return false }
        case let .sphere(center, radius):
            let o = a - center
            guard Self.clipQuadratic(&interval, qa: d.dot(d), qb: 2 * o.dot(d), qc: o.dot(o) - radius * radius) else { return false }
        }
        return interval.low < interval.high
    }

    /// Narrows `interval` to the parameters where `origin + t·delta` lies in [low, high].
    private static func clipSlab(_ interval: inout (low: Double, high: Double), origin: Double, delta: Double,
                                 _ low: Double, _ high: Double) -> Bool {
        if delta == 0 {
            return origin >= low && origin <= high
        }
        var t0 = (low - origin) / delta
        var t1 = (high - origin) / delta
        if t0 > t1 { swap(&t0, &t1) }
        interval.low = Swift.max(interval.low, t0)
        interval.high = Swift.min(interval.high, t1)
        return interval.low < interval.high
    }

    /// Narrows `interval` to where qa·t² + qb·t + qc ≤ 0 (inside a round surface).
    private static func clipQuadratic(_ interval: inout (low: Double, high: Double), qa: Double, qb: Double, qc: Double) -> Bool {
        if qa == 0 {
            // The segment does not move across the round part: inside everywhere or nowhere.
            return qc <= 0
        }
        let discriminant = qb * qb - 4 * qa * qc
        guard discriminant > 0 else { return false }
        let root = discriminant.squareRoot()
        let t0 = (-qb - root) / (2 * qa)
        let t1 = (-qb + root) / (2 * qa)
        interval.low = Swift.max(interval.low, t0)
        interval.high = Swift.min(interval.high, t1)
        return interval.low < interval.high
    }
}

/// Something that attenuates radio waves crossing it: a metal plate, a bus body, a person,
/// a floor or wall (DESIGN.md, "The world"). A line of sight through it loses `lossDB`.
public struct Obstacle: Hashable, Sendable, Codable {
    /// A name for scenarios and reports.
    public var name: String
    /// Where it is.
    public var shape: ObstacleShape
    /// Attenuation in dB of a signal whose line of sight crosses it.
    public var lossDB: Double

    /// An obstacle with every field.
    public init(name: String, shape: ObstacleShape, lossDB: Double) {
        self.name = name
        self.shape = shape
        self.lossDB = lossDB
    }
}
