import CYaml
import Yams

/// Builds a ``YAMLTreeNode`` tree from libyaml's parse events (YAML 1.1 §3.1.2 "Load": parse,
/// then compose), for documents Yams would compose without complaint and decode without
/// flattening merge keys (issue 31).
///
/// Yams' composer wraps every event in an object, decodes every scalar through Foundation,
/// gives every node a tag object and checks each mapping for duplicate keys by hashing whole
/// key nodes; for a large scenario that was most of composing. This one keeps only what
/// decoding reads. It gives up (returns `nil`) on anything it does not handle exactly as Yams
/// does — a syntax error, an empty stream or several documents, an undefined alias, a key that
/// is not a plain string, two keys with the same text — and the caller then composes with Yams,
/// whose error or tree is the reference.
struct YAMLTreeComposer {
    private var parser = yaml_parser_t()
    private var event = yaml_event_t()
    private var anchors: [String: YAMLTreeNode] = [:]

    /// The tree of the single document in `yaml`, or `nil` when Yams must compose it.
    static func compose(_ yaml: String) -> YAMLTreeNode? {
        var text = yaml
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes -> YAMLTreeNode? in
            var composer = YAMLTreeComposer()
            return composer.compose(bytes)
        } ?? nil
    }

    private mutating func compose(_ bytes: UnsafeBufferPointer<UInt8>) -> YAMLTreeNode? {
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer {
            yaml_event_delete(&event)
            yaml_parser_delete(&parser)
        }
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
        guard next() == YAML_STREAM_START_EVENT, next() == YAML_DOCUMENT_START_EVENT,
              let root = node(next()), next() == YAML_DOCUMENT_END_EVENT, next() == YAML_STREAM_END_EVENT else {
            return nil
        }
        return root
    }

    /// The type of the next event, which stays in `event` until the following call;
    /// `YAML_NO_EVENT` on a syntax error.
    private mutating func next() -> yaml_event_type_t {
        yaml_event_delete(&event)
        guard yaml_parser_parse(&parser, &event) == 1 else { return YAML_NO_EVENT }
        return event.type
    }

    /// The node that starts with the current event, of type `type`.
    private mutating func node(_ type: yaml_event_type_t) -> YAMLTreeNode? {
        let line = Int(event.start_mark.line) + 1
        switch type {
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let tag = scalar.quoted_implicit == 1 ? Tag.Name.str.rawValue : Self.text(scalar.tag) ?? ""
            let node = YAMLTreeNode.scalar(YAMLTreeScalar(
                text: String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self),
                tag: tag, style: Node.Scalar.Style(rawValue: scalar.style.rawValue) ?? .any, line: line))
            register(Self.text(scalar.anchor), node)
            return node
        case YAML_ALIAS_EVENT:
            guard let name = Self.text(event.data.alias.anchor) else { return nil }
            return anchors[name]
        case YAML_SEQUENCE_START_EVENT:
            let anchor = Self.text(event.data.sequence_start.anchor)
            var elements: [YAMLTreeNode] = []
            var type = next()
            while type != YAML_SEQUENCE_END_EVENT {
                guard let element = node(type) else { return nil }
                elements.append(element)
                type = next()
            }
            let node = YAMLTreeNode.sequence(YAMLTreeSequence(elements: elements, line: line))
            register(anchor, node)
            return node
        case YAML_MAPPING_START_EVENT:
            let anchor = Self.text(event.data.mapping_start.anchor)
            var keys: [String] = []
            var values: [YAMLTreeNode] = []
            var type = next()
            while type != YAML_MAPPING_END_EVENT {
                guard case let .scalar(key)? = node(type), Self.isString(key.tag), !keys.contains(key.text),
                      let value = node(next()) else { return nil }
                keys.append(key.text)
                values.append(value)
                type = next()
            }
            let node = YAMLTreeNode.mapping(YAMLTreeMapping(keys: keys, values: values, line: line))
            register(anchor, node)
            return node
        default:
            return nil
        }
    }

    /// A later anchor of the same name shadows an earlier one, as in Yams.
    private mutating func register(_ anchor: String?, _ node: YAMLTreeNode) {
        if let anchor { anchors[anchor] = node }
    }

    /// Whether a key with tag name `tag` is found by a field name: Yams matches a name with a
    /// key whose tag resolves to a string's, as plain and quoted keys do.
    private static func isString(_ tag: String) -> Bool {
        tag.isEmpty || tag == Tag.Name.nonSpecific.rawValue || tag == Tag.Name.str.rawValue
    }

    private static func text(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
