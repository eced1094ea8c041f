import Yams

/// A `Decoder` reading straight from a ``YAMLTreeNode`` tree: how ``YAMLDocument`` decodes a
/// document that ``YAMLTreeComposer`` composed (issue 31: a 10,000-device scenario loads in
/// under a second).
///
/// Yams' own decoder gives every field a fresh decoder with a copied coding path and user-info
/// dictionary, finds a key by building a key node and comparing resolved tags along the mapping,
/// and casts dynamically to find how to build a value; on a large scenario that was most of the
/// load. This one keeps its node and a link to its parent, builds the coding path only when it
/// is asked for (for an error), finds a key by its text, and builds scalars with Yams' own
/// `ScalarConstructible` conversions (``YAMLScalarNumbers`` for numbers), so a value decodes
/// exactly as with `YAMLDecoder`, and a type mismatch is the same `DecodingError` at the same
/// path.
final class YAMLNodeDecoder: Decoder {
    /// The node this decoder reads.
    let node: YAMLTreeNode
    private let parent: YAMLNodeDecoder?
    private let step: YAMLDocument.Step?

    /// A decoder of the document's root node.
    init(root: YAMLTreeNode) {
        node = root
        parent = nil
        step = nil
    }

    private init(node: YAMLTreeNode, parent: YAMLNodeDecoder, step: YAMLDocument.Step) {
        self.node = node
        self.parent = parent
        self.step = step
    }

    /// The decoder of `child`, reached from this one by `step`.
    func child(_ child: YAMLTreeNode, _ step: YAMLDocument.Step) -> YAMLNodeDecoder {
        YAMLNodeDecoder(node: child, parent: self, step: step)
    }

    /// The keys from the root to this node, built on demand: only errors need them.
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var decoder: YAMLNodeDecoder? = self
        while let current = decoder, let step = current.step {
            switch step {
            case let .key(text): path.append(YAMLKey(text))
            case let .index(index): path.append(YAMLKey(index: index))
            }
            decoder = current.parent
        }
        return path.reversed()
    }

    /// Nothing: our formats pass no context to their types.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The 1-based line where this decoder's node starts.
    var line: Int { node.line }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(YAMLNodeKeyedContainer<Key>(decoder: self, mapping: try mapping()))
    }

    /// The node as a mapping, or the type mismatch Yams' decoder reports.
    func mapping() throws -> YAMLTreeMapping {
        guard case let .mapping(mapping) = node else { throw mismatch(Node.Mapping.self) }
        return mapping
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case let .sequence(sequence) = node else { throw mismatch(Node.Sequence.self) }
        return YAMLNodeUnkeyedContainer(decoder: self, elements: sequence.elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { YAMLNodeSingleValue(decoder: self) }

    /// Whether the node is a YAML null (`~`, `null`, an empty plain scalar), as Yams reads one.
    var isNull: Bool { node.isNull }

    /// The node as a `T`: a scalar through Yams' conversion for `T`, anything else through
    /// `T.init(from:)` with this decoder.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Checked first so that the common field types need no dynamic cast.
        if T.self == String.self, let value = try scalar(String.self) as? T { return value }
        if T.self == Double.self, let value = try scalar(Double.self) as? T { return value }
        if T.self == Bool.self, let value = try scalar(Bool.self) as? T { return value }
        if T.self == Int64.self, let value = try scalar(Int64.self) as? T { return value }
        if let constructible = T.self as? any ScalarConstructible.Type {
            let value = try scalar(constructible)
            guard let typed = value as? T else { throw mismatch(T.self) }
            return typed
        }
        return try T(from: self)
    }

    /// The node as a scalar of type `T`, or the type mismatch Yams' decoder reports.
    func scalar<T: ScalarConstructible>(_ type: T.Type) throws -> T {
        guard case let .scalar(scalar) = node else { throw mismatch(Node.Scalar.self) }
        let value: T? = if T.self == String.self {
            scalar.text as? T  // String.construct(from:)
        } else if T.self == Double.self {
            YAMLScalarNumbers.double(scalar) as? T
        } else if T.self == Int64.self {
            YAMLScalarNumbers.int64(scalar) as? T
        } else {
            T.construct(from: scalar.yamsScalar)
        }
        guard let value else { throw mismatch(T.self) }
        return value
    }

    /// `DecodingError.typeMismatch` for `expected` here, as Yams' decoder words it.
    func mismatch(_ expected: Any.Type) -> DecodingError {
        let reality: Any.Type = switch node {
        case .scalar: Node.Scalar.self
        case .mapping: Node.Mapping.self
        case .sequence: Node.Sequence.self
        }
        return .typeMismatch(expected, DecodingError.Context(
            codingPath: codingPath, debugDescription: "Expected to decode \(expected) but found \(reality) instead."))
    }
}

private struct YAMLNodeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: YAMLNodeDecoder
    let mapping: YAMLTreeMapping

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { mapping.fieldNames.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { mapping.value(key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(T.self) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try child(YAMLKey("super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }

    private func child(_ key: some CodingKey) throws -> YAMLNodeDecoder {
        guard let node = mapping.value(key.stringValue) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return decoder.child(node, .key(key.stringValue))
    }
}

private struct YAMLNodeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: YAMLNodeDecoder
    let elements: [YAMLTreeNode]
    private(set) var currentIndex = 0

    init(decoder: YAMLNodeDecoder, elements: [YAMLTreeNode]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool { try next(Any?.self) { $0.isNull } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(T.self) { try $0.decode(T.self) } }

    mutating func decode(_ type: Double.Type) throws -> Double { try next(Double.self) { try $0.scalar(Double.self) } }

    mutating func decode(_ type: String.Type) throws -> String { try next(String.self) { try $0.scalar(String.self) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { try next((any Decoder).self) { $0 } }

    /// `read` applied to the next element's decoder; the index moves on only when it succeeds.
    private mutating func next<T>(_ expected: Any.Type, _ read: (YAMLNodeDecoder) throws -> T) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(expected, DecodingError.Context(
                codingPath: codingPath + [YAMLKey(index: currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        let value = try read(decoder.child(elements[currentIndex], .index(currentIndex)))
        currentIndex += 1
        return value
    }
}

private struct YAMLNodeSingleValue: SingleValueDecodingContainer {
    let decoder: YAMLNodeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self) }
}

extension Decoder {
    /// The 1-based line where the node being decoded starts, from ``YAMLNodeDecoder`` or Yams'
    /// own decoder (whose `mark` knows only its own kind).
    var yamlLine: Int? { (self as? YAMLNodeDecoder)?.line ?? mark?.line }
}
