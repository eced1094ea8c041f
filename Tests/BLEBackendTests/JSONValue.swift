import Foundation
import Yams

/// A JSON (or YAML) value, parsed without Foundation's `Any`, so that `true` and `1` stay apart
/// and a schema check can tell an integer from a boolean honestly.
enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses JSON bytes.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// A YAML document (as Yams loads it) as a value.
    static func yaml(_ text: String) throws -> JSONValue {
        guard let loaded = try Yams.load(yaml: text) else { throw ContractError("the YAML document is empty") }
        return try convert(loaded)
    }

    private static func convert(_ value: Any) throws -> JSONValue {
        switch value {
        case let value as Bool: return .bool(value)
        case let value as Int: return .integer(Int64(value))
        case let value as Double: return .number(value)
        case let value as String: return .string(value)
        case let value as [Any]: return .array(try value.map(convert))
        case let value as [String: Any]: return .object(try value.mapValues(convert))
        default:
            if value is NSNull { return .null }
            throw ContractError("the YAML holds a value of type \(type(of: value))")
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var object: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}

/// A contract check that could not run (the document itself is malformed).
struct ContractError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
