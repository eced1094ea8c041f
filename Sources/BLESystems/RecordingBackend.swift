import BLEPhone
import BLETime
import Foundation
import Synchronization

/// A network server in front of another that records every request it answers, with the
/// virtual time it arrived: the back end's half of a system's story.
public final class RecordingBackend: NetworkServer {
    /// One request and its answer.
    public struct Exchange: Sendable {
        /// When the request arrived, in microseconds of virtual time.
        public var time: Int64
        /// The request.
        public var request: NetworkRequest
        /// The answer.
        public var response: NetworkResponse
    }

    private let server: any NetworkServer
    private let now: @Sendable () -> Int64
    private let log = Mutex<[Exchange]>([])

    /// Records `server`'s answers, each at the time `now` gives when the request arrives
    /// (by default the time of the simulation the request is answered in).
    public init(_ server: any NetworkServer, now: @escaping @Sendable () -> Int64 = { Simulation.current?.now ?? 0 }) {
        self.server = server
        self.now = now
    }

    /// The exchanges so far, in order.
    public var exchanges: [Exchange] { log.withLock { $0 } }

    /// The answer of the server behind, recorded.
    public func respond(to request: NetworkRequest) async -> NetworkResponse {
        let time = now()
        let response = await server.respond(to: request)
        log.withLock { $0.append(Exchange(time: time, request: request, response: response)) }
        return response
    }

    /// The story's lines of the exchanges: `POST /rides → 201 {"reference":"R-…"}`.
    func storyLines(host: String = "backend") -> [SystemStoryLine] {
        exchanges.map { exchange in
            let request = exchange.request
            let target = request.path + (request.query.map { "?" + ($0.removingPercentEncoding ?? $0) } ?? "")
            let body = String(decoding: exchange.response.body, as: UTF8.self)
            let shown = body.isEmpty ? "" : body.count <= 160 ? " " + body : " (\(exchange.response.body.count) bytes)"
            return SystemStoryLine(time: exchange.time, actor: .backEnd, who: host,
                                   text: "\(request.method) \(target) → \(exchange.response.status)\(shown)")
        }
    }
}
