import Foundation

/// How an antenna's gain depends on direction, in the horizontal plane.
public enum AntennaPattern: Hashable, Sendable, Codable {
    /// The same gain in every direction.
    case isotropic
    /// A main lobe centred on the device's heading: full gain on the heading, 3 dB less at
    /// half the beamwidth off it, falling parabolically (in dB) with the angle until it
    /// reaches the back level, `frontToBackDB` below the peak (the sector pattern of
    /// 3GPP TR 36.814, Table A.2.1.1-2).
    case directional(beamwidthDegrees: Double, frontToBackDB: Double)

    /// The gain relative to the peak, in dB (0 or negative), toward `direction` for an
    /// antenna facing `headingDegrees` (0° along +x, counter-clockwise toward +y).
    public func relativeGainDB(headingDegrees: Double, toward direction: Vector3) -> Double {
        switch self {
        case .isotropic:
            return 0
        case let .directional(beamwidth, frontToBack):
            let horizontal = (direction.x * direction.x + direction.y * direction.y).squareRoot()
            guard horizontal > 0, beamwidth > 0 else { return 0 }
            let heading = headingDegrees * .pi / 180
            let cosine = (direction.x * cos(heading) + direction.y * sin(heading)) / horizontal
            let angle = acos(Swift.min(1, Swift.max(-1, cosine))) * 180 / .pi
            let ratio = angle / beamwidth
            return -Swift.min(12 * ratio * ratio, Swift.max(0, frontToBack))
        }
    }
}
