import Foundation

/// A point or direction in the world's space, in metres. The world is right-handed with
/// `z` pointing up; headings are measured in the horizontal `x`–`y` plane.
public struct Vector3: Hashable, Sendable, Codable {
    /// East–west coordinate in metres.
    public var x: Double
    /// North–south coordinate in metres.
    public var y: Double
    /// Height in metres.
    public var z: Double

    /// A vector with every coordinate.
    public init(x: Double, y: Double, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The origin.
    public static let zero = Vector3(x: 0, y: 0, z: 0)

    /// The straight-line distance between two points in metres.
    public static func distance(_ a: Vector3, _ b: Vector3) -> Double {
        (b - a).length
    }

    /// The Euclidean length.
    public var length: Double { (x * x + y * y + z * z).squareRoot() }

    /// The dot product.
    public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    /// Component-wise sum.
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    /// Component-wise difference.
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    /// Scaling by a factor.
    public static func * (a: Vector3, k: Double) -> Vector3 { Vector3(x: a.x * k, y: a.y * k, z: a.z * k) }

    /// The point a fraction `t` of the way from `a` to `b` (linear interpolation).
    public static func interpolate(_ a: Vector3, _ b: Vector3, _ t: Double) -> Vector3 {
        a + (b - a) * t
    }
}
