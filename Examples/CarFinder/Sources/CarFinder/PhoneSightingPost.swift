import Foundation

/// One report of a tag, as the back end's `POST /phone-sightings` takes it (`PhoneSighting`
/// in openapi.yaml): the app knows the contract, not the back end's types.
public struct PhoneSightingPost: Hashable, Sendable, Codable {
    /// Where the phone was: a fix from Core Location.
    public struct Position: Hashable, Sendable, Codable {
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// The fix's horizontal accuracy, in metres.
        public var accuracy: Double
    }

    /// The reporting phone.
    public var phone: String
    /// The tag, as gateways name an iBeacon (`ibeacon:UUID:MAJOR:MINOR`).
    public var identity: String
    /// How loud the tag was, in dBm.
    public var rssi: Int
    /// When it was heard, in microseconds since 1970.
    public var time: Int64
    /// Where the phone was then.
    public var position: Position
}

/// A batch of reports (`PhoneSightingBatch` in openapi.yaml).
struct PhoneSightingBatchPost: Encodable {
    var sightings: [PhoneSightingPost]
}
