import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bus office's view of the fleet back end (`ble backend`, docs/backend.md): where a bus is
/// now and when it passed each stop, asked over HTTP as any office program would, from the
/// endpoints of the back end's OpenAPI document and nothing else.
public struct BusOfficeClient: Sendable {
    /// The back end's base address, e.g. `http://127.0.0.1:8080`.
    public var baseURL: URL
    /// The session requests go through.
    public var session: URLSession

    /// A client of the back end at `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// When each of `bus`'s beacons was heard at each zone (`GET /identities/{identity}/passages`),
    /// merged into one visit per stop: a bus carries several beacons so that a body in the way
    /// of one does not hide it.
    /// - Parameter gap: The longest silence, in seconds, within one stop's visit.
    /// - Throws: ``BusOfficeError`` when the back end refuses or answers what the document does not say.
    public func passages(of bus: Bus, gap: Double = 30) async throws -> [StopPassage] {
        var visits: [StopPassage] = []
        for beacon in bus.beacons {
            let answer: PassagesAnswer
            do {
                answer = try await get("identities/\(beacon)/passages", query: [URLQueryItem(name: "gap", value: String(gap))])
            } catch BusOfficeError.status(404, _) {
                continue // this beacon was never heard; the others may have been
            }
            visits += answer.passages.map { StopPassage(stop: $0.zone, arrival: $0.arrival, departure: $0.departure, sightings: $0.sightings) }
        }
        return StopPassage.merging(visits, gap: Int64((gap * 1_000_000).rounded()))
    }

    /// Where `bus` was last heard (`GET /identities/{identity}/location` of each beacon, the latest).
    /// - Returns: `nil` when no beacon of the bus was ever heard.
    public func lastPosition(of bus: Bus) async throws -> BusPosition? {
        var latest: BusPosition?
        for beacon in bus.beacons {
            let answer: LocationAnswer
            do {
                answer = try await get("identities/\(beacon)/location", query: [])
            } catch BusOfficeError.status(404, _) {
                continue
            }
            if latest.map({ answer.lastSeen > $0.time }) ?? true {
                latest = BusPosition(stop: answer.zone, gateway: answer.gateway, time: answer.lastSeen)
            }
        }
        return latest
    }

    private func get<Answer: Decodable>(_ path: String, query: [URLQueryItem]) async throws -> Answer {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        components?.queryItems = query.isEmpty ? nil : query
        guard let url = components?.url else { throw BusOfficeError.badAddress(baseURL.absoluteString + "/" + path) }
        let (data, response) = try await session.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw BusOfficeError.status(status, String(decoding: data, as: UTF8.self))
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw BusOfficeError.unexpectedAnswer(path, "\(error)")
        }
    }
}

/// `GET /identities/{identity}/passages`'s answer, as far as the office reads it.
struct PassagesAnswer: Decodable {
    struct Visit: Decodable {
        var zone: String
        var arrival: Int64
        var departure: Int64
        var sightings: Int
    }

    var passages: [Visit]
}

/// `GET /identities/{identity}/location`'s answer, as far as the office reads it.
struct LocationAnswer: Decodable {
    var zone: String
    var gateway: String
    var lastSeen: Int64

    enum CodingKeys: String, CodingKey {
        case zone, gateway
        case lastSeen = "last_seen"
    }
}

/// Why the office could not answer.
public enum BusOfficeError: Error, CustomStringConvertible, Equatable {
    /// The back end answered with this status and body.
    case status(Int, String)
    /// The answer did not have the form the back end's document gives.
    case unexpectedAnswer(String, String)
    /// The address could not be formed.
    case badAddress(String)

    public var description: String {
        switch self {
        case let .status(status, body): "the back end answered \(status): \(body)"
        case let .unexpectedAnswer(path, reason): "the back end's answer to \(path) is not what its document says: \(reason)"
        case let .badAddress(address): "\(address) is not an address"
        }
    }
}
