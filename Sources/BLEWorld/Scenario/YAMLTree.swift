import Yams

/// A node of a YAML document as ``YAMLNodeDecoder`` reads it: the lean counterpart of Yams'
/// `Node`, built by ``YAMLTreeComposer`` (issue 31).
///
/// Yams' nodes carry a tag object, a weak anchor reference and a style each, and copying one
/// retains all of them; mappings keep key nodes that must be compared by resolved tag. Here a
/// scalar is its text, tag name, style and line; a mapping or sequence is shared by reference,
/// and a mapping's keys are plain texts (the composer leaves documents whose keys are not plain
/// strings to Yams).
enum YAMLTreeNode {
    case scalar(YAMLTreeScalar)
    case mapping(YAMLTreeMapping)
    case sequence(YAMLTreeSequence)

    /// The 1-based line where the node starts.
    var line: Int {
        switch self {
        case let .scalar(scalar): scalar.line
        case let .mapping(mapping): mapping.line
        case let .sequence(sequence): sequence.line
        }
    }

    /// Whether the node is a YAML null as Yams reads one (`NSNull.construct(from:)`): a plain
    /// scalar spelt `~`, `null`, `Null`, `NULL` or nothing.
    var isNull: Bool {
        guard case let .scalar(scalar) = self, scalar.style == .plain else { return false }
        switch scalar.text {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }
}

/// A scalar: its text, the tag name Yams would give it and its style.
struct YAMLTreeScalar {
    /// The scalar's value.
    var text: String
    /// The tag name as Yams' composer records it: empty when implicit, `!` when non-specific,
    /// `tag:yaml.org,2002:str` for a quoted scalar, else the explicit tag.
    var tag: String
    /// How it was written (plain, quoted, block).
    var style: Node.Scalar.Style
    /// The 1-based line where it starts.
    var line: Int

    /// The same scalar as Yams' node, for Yams' conversions (`Bool`, unusual numbers).
    var yamsScalar: Node.Scalar { Node.Scalar(text, Tag(Tag.Name(rawValue: tag)), style) }
}

/// A mapping: its keys' texts and their values, in document order.
final class YAMLTreeMapping {
    /// The keys' texts.
    let keys: [String]
    /// The values, parallel to `keys`.
    let values: [YAMLTreeNode]
    /// The 1-based line where the mapping starts.
    let line: Int

    init(keys: [String], values: [YAMLTreeNode], line: Int) {
        self.keys = keys
        self.values = values
        self.line = line
    }

    /// The value of the key `name`.
    func value(_ name: String) -> YAMLTreeNode? {
        guard let index = keys.firstIndex(of: name) else { return nil }
        return values[index]
    }

    /// The keys a format checks against its allowed names: those Yams' decoder's `allKeys`
    /// gives, which leave out the anchor and tag markers it may add to a mapping.
    var fieldNames: [String] { keys.filter { $0 != "yamlAnchor" && $0 != "yamlTag" } }
}

/// A sequence: its elements in order.
final class YAMLTreeSequence {
    /// The elements.
    let elements: [YAMLTreeNode]
    /// The 1-based line where the sequence starts.
    let line: Int

    init(elements: [YAMLTreeNode], line: Int) {
        self.elements = elements
        self.line = line
    }
}
