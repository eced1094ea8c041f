import BLEWire
import Yams

/// Any mapping key, so a scenario mapping can be checked for keys the format does not know.
struct ScenarioKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) {
        stringValue = string
        intValue = nil
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// `devices[2].advertise.interval` from a coding path.
func scenarioPath(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
        if let index = key.intValue {
            text += "[\(index)]"
        } else if key.stringValue.hasPrefix("Index ") {
            text += "[\(key.stringValue.dropFirst(6))]"
        } else {
            text += text.isEmpty ? key.stringValue : "." + key.stringValue
        }
    }
    return text
}

/// One YAML mapping of a scenario being decoded: typed field access whose errors are
/// ``ScenarioError``s carrying the field's path and line, and a check for unknown keys.
struct ScenarioFields {
    let container: KeyedDecodingContainer<ScenarioKey>
    let decoder: any Decoder

    /// Opens the mapping and rejects keys outside `allowed`.
    init(_ decoder: any Decoder, allowed: [String]) throws {
        self.decoder = decoder
        do {
            container = try decoder.container(keyedBy: ScenarioKey.self)
        } catch {
            throw ScenarioError(.invalidField, path: scenarioPath(decoder.codingPath), line: decoder.mark?.line,
                                message: "expected a mapping with keys \(allowed.joined(separator: ", "))")
        }
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw ScenarioError(.unknownField, path: scenarioPath(decoder.codingPath + [key]), line: line(of: key),
                                message: "unknown key \"\(key.stringValue)\"; expected one of \(allowed.joined(separator: ", "))")
        }
    }

    func has(_ name: String) -> Bool { container.contains(ScenarioKey(name)) }

    func line(of key: ScenarioKey) -> Int? {
        (try? container.superDecoder(forKey: key))?.mark?.line ?? decoder.mark?.line
    }

    /// An invalid-field error about field `name` (or the mapping itself when `nil`).
    func error(_ name: String?, _ message: String) -> ScenarioError { error(name, .invalidField, message) }

    /// An error about field `name` (or the mapping itself when `nil`).
    func error(_ name: String?, _ kind: ScenarioError.Kind, _ message: String) -> ScenarioError {
        guard let name else {
            return ScenarioError(kind, path: scenarioPath(decoder.codingPath), line: decoder.mark?.line, message: message)
        }
        let key = ScenarioKey(name)
        return ScenarioError(kind, path: scenarioPath(decoder.codingPath + [key]), line: line(of: key), message: message)
    }

    func optional<T: Decodable>(_ name: String, _ type: T.Type = T.self, expected: String) throws -> T? {
        let key = ScenarioKey(name)
        guard container.contains(key) else { return nil }
        if (try? container.decodeNil(forKey: key)) == true { return nil }
        do {
            return try container.decode(T.self, forKey: key)
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw self.error(name, "expected \(expected)")
        }
    }

    func required<T: Decodable>(_ name: String, _ type: T.Type = T.self, expected: String) throws -> T {
        guard let value = try optional(name, T.self, expected: expected) else {
            throw self.error(nil, .missingField, "missing \"\(name)\" (\(expected))")
        }
        return value
    }

    /// A number within `range`.
    func number(_ name: String, in range: ClosedRange<Double>, unit: String) throws -> Double? {
        guard let value = try optional(name, Double.self, expected: "a number of \(unit)") else { return nil }
        guard range.contains(value), value.isFinite else {
            throw error(name, "\(value) \(unit) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// An integer of type `T`, written in decimal or 0x hex.
    func integer<T: FixedWidthInteger & Decodable>(_ name: String, _ type: T.Type) throws -> T? {
        guard let value = try optional(name, Int64.self, expected: "an integer") else { return nil }
        guard let exact = T(exactly: value) else {
            throw error(name, "\(value) does not fit \(T.min)…\(T.max)")
        }
        return exact
    }

    func hex(_ name: String) throws -> [UInt8]? {
        guard let text = try optional(name, String.self, expected: "hex octets, e.g. \"0201 06\"") else { return nil }
        guard let bytes = Hex.decode(text) else {
            throw error(name, "\"\(text)\" is not hex octets (an even number of 0-9/a-f digits)")
        }
        return bytes
    }

    func uuid(_ name: String) throws -> BluetoothUUID? {
        guard let text = try optional(name, String.self, expected: "a UUID") else { return nil }
        return try ScenarioFields.uuid(text, field: { self.error(name, $0) })
    }

    static func uuid(_ text: String, field: (String) -> ScenarioError) throws -> BluetoothUUID {
        guard let uuid = BluetoothUUID(text) else {
            throw field("\"\(text)\" is not a UUID (4 or 8 hex digits, or the 8-4-4-4-12 form)")
        }
        return uuid
    }

    func point(_ name: String) throws -> Vector3? {
        try optional(name, ScenarioPoint.self, expected: "a point [x, y, z] in metres")?.vector
    }
}

/// A point written `[x, y, z]`, `[x, y]` (z = 0) or `{x:, y:, z:}`, in metres.
struct ScenarioPoint: Decodable {
    var vector: Vector3

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var values: [Double] = []
            while !list.isAtEnd { values.append(try list.decode(Double.self)) }
            guard values.count == 2 || values.count == 3, values.allSatisfy(\.isFinite) else {
                throw ScenarioError(.invalidField, path: scenarioPath(decoder.codingPath), line: decoder.mark?.line,
                                    message: "expected a point [x, y, z] in metres, got \(values.count) numbers")
            }
            vector = Vector3(x: values[0], y: values[1], z: values.count == 3 ? values[2] : 0)
        } else {
            let fields = try ScenarioFields(decoder, allowed: ["x", "y", "z"])
            vector = Vector3(x: try fields.required("x", expected: "metres"), y: try fields.required("y", expected: "metres"),
                             z: try fields.optional("z", expected: "metres") ?? 0)
        }
    }
}
