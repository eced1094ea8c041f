import BLEFleetStore
import Foundation
import Hummingbird
import NIOCore

/// A request the back end refused or could not answer, sent as a JSON body
/// `{"error": "...", "reason": "..."}` with its HTTP status: `error` is a short code a program
/// can switch on, `reason` says in one sentence what was wrong and what would be accepted.
///
/// Bad input is a normal input (DESIGN.md, "Principles"): every refusal of a request is one of
/// these, a 4xx, never a 500 or a crash; a store that is away is a 503.
public struct BackendError: HTTPResponseError, Equatable, CustomStringConvertible {
    /// The HTTP status sent.
    public var status: HTTPResponse.Status
    /// A short code, e.g. `bad_parameter`, `not_found`, `bad_json`, `store_unavailable`.
    public var error: String
    /// What was wrong, naming the value at fault.
    public var reason: String

    /// An error with every field given.
    public init(status: HTTPResponse.Status, error: String, reason: String) {
        self.status = status
        self.error = error
        self.reason = reason
    }

    /// The error in one line, for logs.
    public var description: String { "\(status.code) \(error): \(reason)" }

    /// A query or path parameter that is missing or of the wrong form (400).
    public static func badParameter(_ name: String, _ reason: String) -> BackendError {
        BackendError(status: .badRequest, error: "bad_parameter", reason: "\(name): \(reason)")
    }

    /// A request body that is not the JSON the operation takes (400).
    public static func badJSON(_ reason: String) -> BackendError {
        BackendError(status: .badRequest, error: "bad_json", reason: reason)
    }

    /// A well-formed body whose values are refused (422 would also do; 400 keeps clients simple).
    public static func invalid(_ reason: String) -> BackendError {
        BackendError(status: .badRequest, error: "invalid_value", reason: reason)
    }

    /// Nothing of that name is stored (404).
    public static func notFound(_ reason: String) -> BackendError {
        BackendError(status: .notFound, error: "not_found", reason: reason)
    }

    /// The store failed: the database is away or a statement failed (503, retry later).
    public static func store(_ error: FleetStoreError) -> BackendError {
        BackendError(status: .serviceUnavailable, error: "store_unavailable", reason: error.description)
    }

    /// The JSON body, `{"error": …, "reason": …}`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        jsonResponse
    }

    /// The response this error is sent as.
    var jsonResponse: Response {
        let body = ErrorBody(error: error, reason: reason)
        let data = (try? BackendJSON.encoder().encode(body)) ?? Data(#"{"error":"internal","reason":"the error could not be encoded"}"#.utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The body of every error response (the OpenAPI document's `Error` schema).
    struct ErrorBody: Codable, Sendable {
        var error: String
        var reason: String
    }
}

/// Turns every error a route throws into a JSON error response: ``BackendError`` as it is,
/// Hummingbird's own (an unknown path, a wrong method) with their status, anything else as a
/// 500 that still has a JSON body. No request ends in an empty 500.
struct BackendErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as BackendError {
            return error.jsonResponse
        } catch let error as FleetStoreError {
            return BackendError.store(error).jsonResponse
        } catch let error as any HTTPResponseError {
            let code = error.status == .notFound ? "not_found" : (error.status.code < 500 ? "bad_request" : "internal")
            let reason = error.status == .notFound
                ? "no operation at \(request.method) \(request.uri.path); see GET /openapi.yaml for the operations"
                : "\(error.status.reasonPhrase) (\(request.method) \(request.uri.path))"
            return BackendError(status: error.status, error: code, reason: reason).jsonResponse
        } catch {
            context.logger.error("Unexpected error", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return BackendError(status: .internalServerError, error: "internal", reason: "\(error)").jsonResponse
        }
    }
}
