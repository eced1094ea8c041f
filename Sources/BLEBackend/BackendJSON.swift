import Foundation
import Hummingbird
import NIOCore

/// The back end's JSON: snake_case keys (`posted_at`, `strongest_rssi`), sorted so that the same
/// answer is the same bytes, and the helpers that read request bodies and write responses.
enum BackendJSON {
    /// The largest request body read (a batch of phone sightings); more is refused with 413.
    static let maximumBodyBytes = 4 << 20

    /// An encoder for responses.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for request bodies.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// `value` as a JSON response with `status`.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws(BackendError) -> Response {
        let data: Data
        do {
            data = try encoder().encode(value)
        } catch {
            throw BackendError(status: .internalServerError, error: "internal", reason: "the answer could not be encoded: \(error)")
        }
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The request's body decoded as `T`; a body too large, not JSON or not of `T`'s shape is a 4xx.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(BackendError) -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodyBytes)
        } catch {
            throw BackendError(status: .contentTooLarge, error: "body_too_large",
                               reason: "the body is larger than \(maximumBodyBytes) bytes; send fewer items per request")
        }
        guard buffer.readableBytes > 0 else { throw .badJSON("the body is empty; send a JSON object") }
        do {
            return try decoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw .badJSON(describe(error))
        } catch {
            throw .badJSON("the body is not JSON: \(error)")
        }
    }

    /// A decoding error in one sentence, with the JSON path (in snake_case, as sent) of the field at fault.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            let text = keys.map { key in key.intValue.map { "[\($0)]" } ?? "." + snakeCase(key.stringValue) }.joined()
            return text.isEmpty ? "the body" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(path(context.codingPath, key))'"
        case .typeMismatch(let type, let context):
            return "'\(path(context.codingPath))' must be \(jsonName(of: type))"
        case .valueNotFound(let type, let context):
            return "'\(path(context.codingPath))' must be \(jsonName(of: type)), not null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON" }
            return "'\(path(context.codingPath))' is not valid: \(context.debugDescription)"
        @unknown default:
            return "the body does not decode: \(error)"
        }
    }

    /// `postedAt` → `posted_at`, as the encoder writes it.
    static func snakeCase(_ key: String) -> String {
        var result = ""
        for character in key {
            if character.isUppercase, !result.isEmpty { result += "_" }
            result += character.lowercased()
        }
        return result
    }

    /// The JSON type a Swift type is sent as, for error messages.
    static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "an object or array of the documented shape"
        }
    }
}
