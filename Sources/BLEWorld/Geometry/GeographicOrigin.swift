/// Where on Earth a world's (0, 0, 0) is, so a device's position in metres (+x east,
/// +y north) becomes a latitude and longitude (scenarios' `origin`), as a phone's location
/// hardware would report it.
public struct GeographicOrigin: Hashable, Sendable {
    /// Degrees north of the equator, −90 to 90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180 to 180.
    public var longitude: Double

    /// The origin at `latitude`, `longitude`.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
