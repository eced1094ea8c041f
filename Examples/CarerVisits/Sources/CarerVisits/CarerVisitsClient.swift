import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The carer's visit log: how long a wristband spent in each room, asked of the fleet back end
/// (`GET /dwell?identity=…&assign=presence`, docs/backend.md) over HTTP. "Presence" places the
/// wearer in one room at a time, by the presence algorithm that holds a room until another is
/// clearly stronger: every room's gateway hears the wristband through the walls, so counting
/// every room that heard it would give each room nearly the whole visit.
public struct CarerVisitsClient: Sendable {
    /// The back end's base address.
    public var baseURL: URL
    /// The session requests go through.
    public var session: URLSession

    /// A client of the back end at `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// Seconds `identity` spent per room, one room at a time.
    /// - Parameter assign: `presence` (the presence algorithm), or `nearest` (the strongest mean
    ///   RSSI of each 5 s), or `each` (every room that heard it), as `GET /dwell` takes it.
    /// - Throws: ``CarerVisitsError`` when the back end refuses or answers what its document does not say.
    public func timePerRoom(of identity: String, assign: String = "presence") async throws -> [RoomTime] {
        var components = URLComponents(url: baseURL.appendingPathComponent("dwell"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "identity", value: identity), URLQueryItem(name: "assign", value: assign)]
        guard let url = components?.url else { throw CarerVisitsError.status(0, "cannot form the address from \(baseURL)") }
        let (data, response) = try await session.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw CarerVisitsError.status(status, String(decoding: data, as: UTF8.self)) }
        do {
            return try JSONDecoder().decode(DwellAnswer.self, from: data).dwell.map { RoomTime(room: $0.zone, seconds: $0.seconds, visits: $0.visits) }
        } catch {
            throw CarerVisitsError.unexpectedAnswer("\(error)")
        }
    }
}

/// Time spent in one room.
public struct RoomTime: Hashable, Sendable {
    /// The room (the zone of its gateway).
    public var room: String
    /// Seconds spent there.
    public var seconds: Double
    /// How many separate visits.
    public var visits: Int

    /// A room's time with every field given.
    public init(room: String, seconds: Double, visits: Int) {
        self.room = room
        self.seconds = seconds
        self.visits = visits
    }
}

/// `GET /dwell`'s answer, as far as the log reads it.
struct DwellAnswer: Decodable {
    struct Entry: Decodable {
        var zone: String
        var seconds: Double
        var visits: Int
    }

    var dwell: [Entry]
}

/// Why the log could not be read.
public enum CarerVisitsError: Error, CustomStringConvertible {
    /// The back end answered with this status and body.
    case status(Int, String)
    /// The answer did not have the form the back end's document gives.
    case unexpectedAnswer(String)

    public var description: String {
        switch self {
        case let .status(status, body): "the back end answered \(status): \(body)"
        case let .unexpectedAnswer(reason): "the back end's dwell answer is not what its document says: \(reason)"
        }
    }
}
