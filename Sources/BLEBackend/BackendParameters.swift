import Foundation
import Hummingbird

/// A request's path and query parameters read strictly: a value of the wrong form is a 400
/// naming the parameter and what it accepts, never a default silently used in its place.
struct BackendParameters {
    let request: Request
    let context: BasicRequestContext

    /// A path parameter, percent-decoded (identities hold `:` and may be sent as `%3A`).
    func path(_ name: String) throws(BackendError) -> String {
        guard let raw = context.parameters.get(name) else { throw .badParameter(name, "missing from the path") }
        let text = raw.removingPercentEncoding ?? raw
        try Self.checkText(text, name: name)
        return text
    }

    /// A query parameter's text, when given (an empty value counts as given and is refused).
    func text(_ name: String) throws(BackendError) -> String? {
        guard let value = request.uri.queryParameters.get(name) else { return nil }
        try Self.checkText(value, name: name)
        return value
    }

    /// A time in microseconds since the epoch, when given.
    func time(_ name: String) throws(BackendError) -> Int64? {
        guard let value = request.uri.queryParameters.get(name) else { return nil }
        guard let time = Int64(value) else { throw .badParameter(name, "'\(value)' is not a time in microseconds since the epoch (an integer)") }
        return time
    }

    /// The time range `[from, to)`; each bound open when not given.
    func range() throws(BackendError) -> (from: Int64, to: Int64) {
        let from = try time("from") ?? Int64.min
        let to = try time("to") ?? Int64.max
        guard from < to else { throw .badParameter("from", "must be before to (\(from) is not before \(to))") }
        return (from, to)
    }

    /// `limit`, 1 … ``BackendLimits/maximumLimit``.
    func limit() throws(BackendError) -> Int {
        guard let value = request.uri.queryParameters.get("limit") else { return BackendLimits.defaultLimit }
        guard let limit = Int(value), (1 ... BackendLimits.maximumLimit).contains(limit) else {
            throw .badParameter("limit", "'\(value)' is not a whole number from 1 to \(BackendLimits.maximumLimit)")
        }
        return limit
    }

    /// A duration in seconds (`gap`, `window`), more than 0 and at most a day, in microseconds.
    func seconds(_ name: String, default defaultValue: Double) throws(BackendError) -> (seconds: Double, microseconds: Int64) {
        guard let value = request.uri.queryParameters.get(name) else { return (defaultValue, Int64(defaultValue * 1_000_000)) }
        guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw .badParameter(name, "'\(value)' is not a number of seconds more than 0 and at most 86400")
        }
        return (seconds, Int64((seconds * 1_000_000).rounded()))
    }

    /// Refuses empty, overlong and control-character text.
    static func checkText(_ text: String, name: String) throws(BackendError) {
        if text.isEmpty { throw .badParameter(name, "must not be empty") }
        if text.utf8.count > BackendLimits.maximumTextBytes {
            throw .badParameter(name, "is longer than \(BackendLimits.maximumTextBytes) bytes")
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .badParameter(name, "must not contain control characters")
        }
    }
}
