import Foundation

/// A ride as the back end's `POST /rides` takes it (`RideLog` in openapi.yaml): the app
/// knows the contract, not the back end's types.
public struct RidePost: Hashable, Sendable, Codable {
    /// Who rode (the app's rider identifier).
    public var rider: String
    /// The vehicle, as the bus's beacon identity (`ibeacon:UUID:MAJOR`).
    public var vehicle: String
    /// The line.
    public var route: String
    /// Where and when the rider boarded.
    public var boarded: RideRecorder.Stop
    /// Where and when the rider got off.
    public var alighted: RideRecorder.Stop
    /// Every stop on the ride, in order.
    public var stops: [RideRecorder.Stop]
    /// When the ride was finished and first posted, in microseconds since 1970; a retry sends
    /// the same value (the back end recognises a ride sent again by its content).
    public var postedAt: Int64

    private enum CodingKeys: String, CodingKey {
        case rider, vehicle, route, boarded, alighted, stops
        case postedAt = "posted_at"
    }
}

/// The back end's answer to a posted ride (`RideCreated` in openapi.yaml).
struct RideCreated: Decodable {
    var reference: String
}

/// Why a post did not give a reference: the app keeps the ride and tries again later.
public enum RidePostFailure: Error, Hashable, Sendable {
    /// No answer (the link is down, or dropped the exchange): Foundation's `URLError` code.
    case network(code: Int)
    /// The back end answered with a status other than 200 or 201.
    case status(Int)
    /// The answer was not a `RideCreated` document.
    case unreadableAnswer
}
