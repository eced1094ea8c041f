import Yams

/// Decodes a YAML document into a `Decodable` type whose `init(from:)` uses ``YAMLFields``,
/// turning every problem — YAML syntax, a wrong type, a missing or unknown field, a failed
/// check — into one ``ScenarioError`` naming the file, line and field path. Shared by the
/// scenario format and the `ble serve` file format.
public enum YAMLDocument {
    /// The document in `yaml` decoded as `T`; `file` names it in errors, `emptyMessage` is the
    /// error for an empty document.
    public static func decode<T: Decodable>(_ type: T.Type, yaml: String, file: String? = nil,
                                            emptyMessage: String) throws(ScenarioError) -> T {
        try decode(type, yaml: yaml, file: file, emptyMessage: emptyMessage, validate: { _ throws(ScenarioError) in },
                   locate: { _, _ in })
    }

    /// How a document becomes a value.
    enum Decoding {
        /// ``YAMLTreeComposer`` and ``YAMLNodeDecoder`` when the document is composed with the
        /// basic resolver (it has no merge keys, which only Yams' decoder flattens) and the
        /// composer takes it; else Yams' composer and `YAMLDecoder`.
        case fastest
        /// Yams' composer and `YAMLDecoder` always: the reference the fast path is tested against.
        case yams
    }

    /// ``decode(_:yaml:file:emptyMessage:)`` followed by `validate`, whose errors are located
    /// the same way; `locate` may add more to each error from the document's node tree.
    /// `resolver` replaces ``resolver(for:)``'s choice and `decoding` the decoder (tests and
    /// benchmarks compare them).
    static func decode<T: Decodable>(_ type: T.Type, yaml: String, file: String?, emptyMessage: String,
                                     resolver: Resolver? = nil, decoding: Decoding = .fastest,
                                     validate: (T) throws(ScenarioError) -> Void,
                                     locate: (inout ScenarioError, Node) -> Void) throws(ScenarioError) -> T {
        let resolver = resolver ?? self.resolver(for: yaml)
        if decoding == .fastest, resolver === Resolver.basic, let tree = YAMLTreeComposer.compose(yaml) {
            do {
                let value = try YAMLNodeDecoder(root: tree).decode(T.self)
                try validate(value)
                return value
            } catch {
                // Errors are located in Yams' tree of the same text, as on the reference path.
                let node = try composeWithYams(yaml, resolver: resolver, file: file, emptyMessage: emptyMessage)
                throw located(error, node: node, file: file, locate: locate)
            }
        }
        let node = try composeWithYams(yaml, resolver: resolver, file: file, emptyMessage: emptyMessage)
        do {
            let value = try YAMLDecoder().decode(T.self, from: node)
            try validate(value)
            return value
        } catch {
            throw located(error, node: node, file: file, locate: locate)
        }
    }

    private static func composeWithYams(_ yaml: String, resolver: Resolver, file: String?,
                                        emptyMessage: String) throws(ScenarioError) -> Node {
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml, resolver)
        } catch {
            throw syntaxError(error, file: file)
        }
        guard let node else { throw ScenarioError(.syntax, file: file, message: emptyMessage) }
        return node
    }

    /// `error` from decoding or validating `node` as a ``ScenarioError`` with its file, line and more.
    private static func located(_ error: any Error, node: Node, file: String?,
                                locate: (inout ScenarioError, Node) -> Void) -> ScenarioError {
        switch error {
        case var error as ScenarioError:
            error.file = file
            if error.line == nil { error.line = line(in: node, path: error.path) }
            locate(&error, node)
            return error
        case let error as DecodingError:
            var located = decodingError(error, node: node, file: file)
            locate(&located, node)
            return located
        default:
            return ScenarioError(.invalidField, file: file, message: String(describing: error))
        }
    }

    /// How the document's plain scalars get their implicit tags: no rules at all, unless the
    /// text may hold a merge key (`<<`), which only Yams' default rules recognise.
    ///
    /// Yams' default resolver tries up to seven regular expressions (YAML 1.1's bool, int,
    /// float, merge, null, timestamp and value) on a scalar the first time its tag is asked
    /// for, and a mapping key's tag is asked for when the composer checks for duplicate keys and
    /// again, on a fresh key, on every field lookup; on a large scenario those regular
    /// expressions were most of the load time (issue 31). Our formats never use the implicit
    /// tags of values: a field is read as the type it expects, and Yams builds an `Int`, a
    /// `Double`, a `Bool` or a null from a plain scalar's text whatever its unresolved tag, so
    /// every value decodes as before. Keys compare by text and tag, and two keys with the same
    /// text get the same tag under either resolver, so lookups and duplicate-key errors are
    /// unchanged too. Merge keys are the one place Yams reads a resolved tag (`!!merge`).
    static func resolver(for yaml: String) -> Resolver {
        mayHoldMergeKey(yaml) ? .default : .basic
    }

    /// Whether `yaml` contains `<<`, read byte by byte: Foundation's substring search on a
    /// large scenario cost more than the answer is worth.
    static func mayHoldMergeKey(_ yaml: String) -> Bool {
        var previous: UInt8 = 0
        for byte in yaml.utf8 {
            if byte == UInt8(ascii: "<"), previous == byte { return true }
            previous = byte
        }
        return false
    }

    private static func syntaxError(_ error: any Error, file: String?) -> ScenarioError {
        guard let yamlError = error as? YamlError else {
            return ScenarioError(.syntax, file: file, message: "not valid YAML: \(error)")
        }
        switch yamlError {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return ScenarioError(.syntax, line: mark.line, file: file, message: "not valid YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return ScenarioError(.syntax, line: context.mark.line, file: file,
                                 message: "duplicate keys \(duplicates.joined(separator: ", ")) in one mapping")
        default:
            return ScenarioError(.syntax, file: file, message: "not valid YAML: \(yamlError)")
        }
    }

    private static func decodingError(_ error: DecodingError, node: Node, file: String?) -> ScenarioError {
        let (path, message): (String, String)
        switch error {
        case let .typeMismatch(type, context):
            (path, message) = (yamlPath(context.codingPath), "expected \(type)")
        case let .valueNotFound(type, context):
            (path, message) = (yamlPath(context.codingPath), "expected \(type), found nothing")
        case let .keyNotFound(key, context):
            (path, message) = (yamlPath(context.codingPath), "missing \"\(key.stringValue)\"")
        case let .dataCorrupted(context):
            (path, message) = (yamlPath(context.codingPath), context.debugDescription)
        @unknown default:
            (path, message) = ("", String(describing: error))
        }
        return ScenarioError(.invalidField, path: path, line: line(in: node, path: path), file: file, message: message)
    }

    /// Splits `devices[2].advertise.name` into keys and indices.
    enum Step {
        case key(String)
        case index(Int)
    }

    static func steps(_ path: String) -> [Step] {
        var steps: [Step] = []
        for part in path.split(separator: ".") {
            var rest = Substring(part)
            if let open = rest.firstIndex(of: "["), open != rest.startIndex {
                steps.append(.key(String(rest[..<open])))
                rest = rest[open...]
            } else if !rest.hasPrefix("[") {
                steps.append(.key(String(rest)))
                continue
            }
            for index in rest.split(separator: "[").compactMap({ Int($0.dropLast()) }) { steps.append(.index(index)) }
        }
        return steps
    }

    static func child(_ node: Node, _ step: Step) -> Node? {
        switch step {
        case let .key(key):
            return node[key]
        case let .index(index):
            guard case let .sequence(sequence) = node, sequence.indices.contains(index) else { return nil }
            return sequence[index]
        }
    }

    /// The line of the deepest node along `path` that exists.
    static func line(in node: Node, path: String) -> Int? {
        var current = node
        var line = node.mark?.line
        for step in steps(path) {
            guard let next = child(current, step) else { break }
            current = next
            line = next.mark?.line ?? line
        }
        return line
    }
}
