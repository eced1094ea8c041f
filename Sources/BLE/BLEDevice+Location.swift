import BLEHost
import BLEWire
import Foundation

/// Where a device is in its simulated world, as the world reports it through SwiftBLE's
/// vendor command (`HCI.ReadSimulatedLocation`): what a phone's location hardware would
/// say. Real controllers have no such answer (``BLEDevice/simulatedLocation()`` is `nil`).
public struct SimulatedLocation: Hashable, Sendable {
    /// Metres east of the world's origin.
    public var east: Double
    /// Metres north of the world's origin.
    public var north: Double
    /// Metres above the world's origin.
    public var up: Double
    /// The direction the device faces, degrees clockwise from north (0 ..< 360).
    public var headingDegrees: Double
    /// The latitude and longitude of the world's origin, when the world has one
    /// (a scenario's `origin`).
    public var origin: GeographicCoordinate?

    /// A location with every field.
    public init(east: Double, north: Double, up: Double, headingDegrees: Double, origin: GeographicCoordinate?) {
        self.east = east
        self.north = north
        self.up = up
        self.headingDegrees = headingDegrees
        self.origin = origin
    }

    /// The device's latitude and longitude: the origin moved by ``north`` and ``east``
    /// metres on the local tangent plane, with the metres per degree of the WGS 84
    /// ellipsoid at the origin's latitude (exact to centimetres over a few kilometres).
    /// `nil` without an origin.
    public var coordinate: GeographicCoordinate? {
        guard let origin else { return nil }
        let phi = origin.latitude * .pi / 180
        let metresPerDegreeLatitude = 111_132.92 - 559.82 * cos(2 * phi) + 1.175 * cos(4 * phi)
        let metresPerDegreeLongitude = 111_412.84 * cos(phi) - 93.5 * cos(3 * phi)
        let longitude = metresPerDegreeLongitude > 1e-6 ? origin.longitude + east / metresPerDegreeLongitude : origin.longitude
        return GeographicCoordinate(latitude: origin.latitude + north / metresPerDegreeLatitude, longitude: longitude)
    }
}

/// A point on Earth in degrees (WGS 84).
public struct GeographicCoordinate: Hashable, Sendable {
    /// Degrees north of the equator.
    public var latitude: Double
    /// Degrees east of Greenwich.
    public var longitude: Double

    /// The point at `latitude`, `longitude`.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension BLEDevice {
    /// Where this device is in its simulated world, or `nil` on a controller that is not
    /// simulated (it answers SwiftBLE's vendor command with Unknown HCI Command, Core 5.4,
    /// Vol 4, Part E, §4.5). Works over any transport to a simulated controller, e.g. a
    /// device of `ble sim serve`.
    /// - Throws: ``BLEError`` when the controller fails otherwise or the device is closed.
    public func simulatedLocation() async throws(BLEError) -> SimulatedLocation? {
        let answer: HCI.ReadSimulatedLocation.ReturnParameters
        do {
            answer = try await core.host.readSimulatedLocation()
        } catch HostError.gap(.controller(.unknownHCICommand)) {
            return nil
        } catch {
            throw BLEError(error, closed: false)
        }
        return SimulatedLocation(
            east: Double(answer.xMillimetres) / 1000, north: Double(answer.yMillimetres) / 1000,
            up: Double(answer.zMillimetres) / 1000, headingDegrees: Double(answer.headingCentidegrees) / 100,
            origin: answer.hasOrigin
                ? GeographicCoordinate(latitude: Double(answer.originLatitude) / 1e7, longitude: Double(answer.originLongitude) / 1e7) : nil)
    }
}
