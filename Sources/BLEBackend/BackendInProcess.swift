import BLEFleetStore
import BLEPhone
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

/// The back end as a server inside a simulation (``NetworkServer``): a simulated phone's
/// requests for its host (`SimulatedPhone.register(server:host:)`) are answered by the same
/// Hummingbird router ``BackendServer`` serves on a socket (``BackendRoutes/router(_:)``),
/// called without one, so the simulated back end and the real one cannot disagree.
///
/// ```swift
/// let store = SQLiteFleetStore(path: directory + "/fleet.sqlite")
/// try await store.migrate()
/// phone.register(server: BackendInProcess(store: store), host: "backend.sim")
/// ```
public struct BackendInProcess: NetworkServer {
    private let responder: RouterResponder<BasicRequestContext>
    private let logger: Logger

    /// The back end over `store` (migrated by the caller), resolving the identifiers of
    /// `eidBeacons`, logging to `logger`.
    public init(store: any FleetStore, eidBeacons: EIDBeaconRegistry = .none, logger: Logger = Logger(label: "ble.backend.sim")) {
        responder = BackendRoutes.router(BackendQueries(store: store, eidBeacons: eidBeacons)).buildResponder()
        self.logger = logger
    }

    /// The router's answer to `request`, as a socket would carry it: a route's error is the
    /// JSON error its middleware writes; an error that escapes the router is a 500.
    public func respond(to request: NetworkRequest) async -> NetworkResponse {
        guard let method = HTTPRequest.Method(request.method) else {
            return Self.plain(400, "\"\(request.method)\" is not an HTTP method")
        }
        var fields = HTTPFields()
        for header in request.headers {
            guard let name = HTTPField.Name(header.name) else { return Self.plain(400, "\"\(header.name)\" is not a header name") }
            fields.append(HTTPField(name: name, value: header.value))
        }
        fields[.contentLength] = String(request.body.count)
        let path = request.path + (request.query.map { "?" + $0 } ?? "")
        let head = HTTPRequest(method: method, scheme: "http", authority: request.host, path: path, headerFields: fields)
        let hummingbirdRequest = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: request.body)))
        let context = BasicRequestContext(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: hummingbirdRequest, context: context)
        } catch let error as any HTTPResponseError {
            guard let generated = try? error.response(from: hummingbirdRequest, context: context) else {
                return Self.plain(500, "\(error)")
            }
            response = generated
        } catch {
            return Self.plain(500, "\(error)")
        }
        let body = BodyCollector()
        do {
            try await response.body.write(body)
        } catch {
            return Self.plain(500, "the response body could not be written: \(error)")
        }
        var headers: [String: String] = [:]
        for field in response.headers {
            headers[field.name.canonicalName] = headers[field.name.canonicalName].map { $0 + ", " + field.value } ?? field.value
        }
        return NetworkResponse(status: Int(response.status.code), headers: headers, body: body.data)
    }

    /// A plain-text answer for a request the router cannot be given.
    private static func plain(_ status: Int, _ text: String) -> NetworkResponse {
        NetworkResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }
}

/// Collects a response body in memory: written by the one task that writes the body, read
/// after it ends.
private final class BodyCollector: ResponseBodyWriter {
    var data = Data()

    func write(_ buffer: ByteBuffer) async throws {
        data.append(contentsOf: buffer.readableBytesView)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
