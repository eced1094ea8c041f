import Foundation

/// The shadow a person's body casts on the phone they hold (DESIGN.md, "The world": a
/// human body is one of the obstacles that attenuate the line of sight).
///
/// A torso is mostly water and absorbs 2.4 GHz well; field measurements put a body
/// between phone and beacon at roughly 10–20 dB. A person holds the phone in front of
/// them, so the body is between the two only when the other end is behind the person. The
/// model: no loss for directions within 90° of the heading, and `lossDB · (−cos θ)` beyond,
/// where θ is the horizontal angle off the heading — the full loss straight behind, half of
/// it at 120°. Unlike a directional antenna's pattern it leaves the front half untouched,
/// so a beacon passed at arm's length is heard at full strength until it falls behind.
public enum BodyShadow {
    /// The loss in dB (0 or positive) toward `direction` for a body facing `headingDegrees`
    /// (0° along +x, counter-clockwise) whose loss straight behind is `lossDB`.
    public static func lossDB(_ lossDB: Double, headingDegrees: Double, toward direction: Vector3) -> Double {
        let horizontal = (direction.x * direction.x + direction.y * direction.y).squareRoot()
        guard lossDB > 0, horizontal > 0 else { return 0 }
        let heading = headingDegrees * .pi / 180
        let cosine = (direction.x * cos(heading) + direction.y * sin(heading)) / horizontal
        return cosine < 0 ? lossDB * -cosine : 0
    }
}
