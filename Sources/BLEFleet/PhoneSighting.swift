/// An advertisement a phone heard and reported with where the phone was, as a finder app does
/// for a stolen car's hidden beacon (issue 29, "Stolen car"): the positions of the phones that
/// heard an identity trace where it went.
///
/// A phone sighting is named by (phone, identity, time): a phone that reports the same one
/// twice (a retry after a lost answer) stores it once.
public struct PhoneSighting: Hashable, Sendable, Codable {
    /// The reporting phone, as its app names it.
    public var phone: String
    /// What the phone heard, in a gateway's identity form (e.g. `ibeacon:…:7:7`).
    public var identity: String
    /// The received signal strength, in dBm.
    public var rssi: Int
    /// When, in microseconds since the epoch (virtual time in a simulation).
    public var time: Int64
    /// Where the phone was.
    public var position: Position

    /// A phone sighting with every field given.
    public init(phone: String, identity: String, rssi: Int, time: Int64, position: Position) {
        self.phone = phone
        self.identity = identity
        self.rssi = rssi
        self.time = time
        self.position = position
    }

    /// A phone's position: a geographic one (WGS 84 degrees, as Core Location reports), a
    /// simulated world's plane (metres), or both; with the horizontal accuracy in metres.
    public struct Position: Hashable, Sendable, Codable {
        /// Latitude in degrees, −90…90.
        public var latitude: Double?
        /// Longitude in degrees, −180…180.
        public var longitude: Double?
        /// The world's x in metres.
        public var x: Double?
        /// The world's y in metres.
        public var y: Double?
        /// The radius of uncertainty in metres (Core Location's `horizontalAccuracy`).
        public var accuracy: Double?

        /// A position with every field given; leave out the pair a phone does not know.
        public init(latitude: Double? = nil, longitude: Double? = nil, x: Double? = nil, y: Double? = nil, accuracy: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.x = x
            self.y = y
            self.accuracy = accuracy
        }
    }
}
