import BLEWire
import Yams

/// Any mapping key, so a YAML mapping can be checked for keys its format does not know.
public struct YAMLKey: CodingKey, Hashable, Sendable {
    /// The key's text.
    public var stringValue: String
    /// The index, for a sequence element.
    public var intValue: Int?
    /// The key `string`.
    public init(_ string: String) {
        stringValue = string
        intValue = nil
    }
    /// The key of sequence element `index`, spelt as Yams' decoder spells it (`Index 2`).
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }
    /// The key `stringValue`.
    public init?(stringValue: String) { self.init(stringValue) }
    /// The sequence index `intValue`.
    public init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// The path of a field as the YAML formats' errors print it, `devices[2].advertise.interval`,
/// from a coding path.
public func yamlPath(_ codingPath: [any CodingKey]) -> String {
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

/// One YAML mapping being decoded by hand (a scenario, a `ble serve` file): typed field
/// access whose errors are ``ScenarioError``s carrying the field's path and line, and a check
/// for unknown keys so a typo is refused instead of silently ignored. Use it inside
/// `init(from:)` of a `Decodable` type decoded with ``YAMLDocument``.
public struct YAMLFields {
    /// The decoder of the mapping, for its coding path and line.
    public let decoder: any Decoder
    private let source: Source

    /// Where the fields come from.
    private enum Source {
        /// The mapping's node, read directly (``YAMLNodeDecoder``, issue 31).
        case node(YAMLNodeDecoder, YAMLTreeMapping)
        /// Yams' keyed container, and the mapping's keys read once.
        case container(KeyedDecodingContainer<YAMLKey>, Set<String>)
    }

    /// Opens the mapping and rejects keys outside `allowed`.
    public init(_ decoder: any Decoder, allowed: [String]) throws {
        self.decoder = decoder
        let allKeys: [String]
        do {
            if let nodeDecoder = decoder as? YAMLNodeDecoder {
                let mapping = try nodeDecoder.mapping()
                allKeys = mapping.fieldNames
                source = .node(nodeDecoder, mapping)
            } else {
                let container = try decoder.container(keyedBy: YAMLKey.self)
                allKeys = container.allKeys.map(\.stringValue)
                source = .container(container, Set(allKeys))
            }
        } catch {
            throw ScenarioError(.invalidField, path: yamlPath(decoder.codingPath), line: decoder.yamlLine,
                                message: "expected a mapping with keys \(allowed.joined(separator: ", "))")
        }
        for name in allKeys where !allowed.contains(name) {
            let key = YAMLKey(name)
            throw ScenarioError(.unknownField, path: yamlPath(decoder.codingPath + [key]), line: line(of: key),
                                message: "unknown key \"\(name)\"; expected one of \(allowed.joined(separator: ", "))")
        }
    }

    /// Whether the mapping has the key `name`.
    public func has(_ name: String) -> Bool {
        switch source {
        case let .node(_, mapping): mapping.value(name) != nil
        case let .container(_, keys): keys.contains(name)
        }
    }

    /// The line of the value of `key`, else of the mapping.
    public func line(of key: YAMLKey) -> Int? {
        switch source {
        case let .node(_, mapping): mapping.value(key.stringValue)?.line ?? decoder.yamlLine
        case let .container(container, _): (try? container.superDecoder(forKey: key))?.mark?.line ?? decoder.yamlLine
        }
    }

    /// An invalid-field error about field `name` (or the mapping itself when `nil`).
    public func error(_ name: String?, _ message: String) -> ScenarioError { error(name, .invalidField, message) }

    /// An error about field `name` (or the mapping itself when `nil`).
    public func error(_ name: String?, _ kind: ScenarioError.Kind, _ message: String) -> ScenarioError {
        guard let name else {
            return ScenarioError(kind, path: yamlPath(decoder.codingPath), line: decoder.yamlLine, message: message)
        }
        let key = YAMLKey(name)
        return ScenarioError(kind, path: yamlPath(decoder.codingPath + [key]), line: line(of: key), message: message)
    }

    /// Field `name` as a `T`, `nil` when absent or null; `expected` says what it should be
    /// in the error when it is not a `T`.
    public func optional<T: Decodable>(_ name: String, _ type: T.Type = T.self, expected: String) throws -> T? {
        do {
            switch source {
            case let .node(decoder, mapping):
                // What `Optional<T>`'s decoding does, without a container per field.
                guard let value = mapping.value(name) else { return nil }
                let field = decoder.child(value, .key(name))
                return field.isNull ? nil : try field.decode(T.self)
            case let .container(container, keys):
                guard keys.contains(name) else { return nil }
                // One lookup: `Optional`'s decoding is null-or-`T` on the value's own decoder.
                return try container.decode(T?.self, forKey: YAMLKey(name))
            }
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw self.error(name, "expected \(expected)")
        }
    }

    /// Field `name` as a `T`; a missing-field error when absent.
    public func required<T: Decodable>(_ name: String, _ type: T.Type = T.self, expected: String) throws -> T {
        guard let value = try optional(name, T.self, expected: expected) else {
            throw self.error(nil, .missingField, "missing \"\(name)\" (\(expected))")
        }
        return value
    }

    /// A number within `range`.
    public func number(_ name: String, in range: ClosedRange<Double>, unit: String) throws -> Double? {
        guard let value = try optional(name, Double.self, expected: "a number of \(unit)") else { return nil }
        guard range.contains(value), value.isFinite else {
            throw error(name, "\(value) \(unit) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// An integer of type `T`, written in decimal or 0x hex.
    public func integer<T: FixedWidthInteger & Decodable>(_ name: String, _ type: T.Type) throws -> T? {
        guard let value = try optional(name, Int64.self, expected: "an integer") else { return nil }
        guard let exact = T(exactly: value) else {
            throw error(name, "\(value) does not fit \(T.min)…\(T.max)")
        }
        return exact
    }

    /// Octets written as hex text, e.g. `"0201 06"` (see `Hex.decode`).
    public func hex(_ name: String) throws -> [UInt8]? {
        guard let text = try optional(name, String.self, expected: "hex octets, e.g. \"0201 06\"") else { return nil }
        guard let bytes = Hex.decode(text) else {
            throw error(name, "\"\(text)\" is not hex octets (an even number of 0-9/a-f digits)")
        }
        return bytes
    }

    /// A Bluetooth UUID: 4 or 8 hex digits, or the 8-4-4-4-12 form.
    public func uuid(_ name: String) throws -> BluetoothUUID? {
        guard let text = try optional(name, String.self, expected: "a UUID") else { return nil }
        return try YAMLFields.uuid(text, field: { self.error(name, $0) })
    }

    /// `text` as a Bluetooth UUID, else the error `field` makes from a message.
    public static func uuid(_ text: String, field: (String) -> ScenarioError) throws -> BluetoothUUID {
        guard let uuid = BluetoothUUID(text) else {
            throw field("\"\(text)\" is not a UUID (4 or 8 hex digits, or the 8-4-4-4-12 form)")
        }
        return uuid
    }
}
