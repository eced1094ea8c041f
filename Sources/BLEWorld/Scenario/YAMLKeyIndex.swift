import Yams

/// The keys of every mapping in a composed YAML document, by where the mapping starts, read in
/// one walk of the node tree so that ``YAMLFields`` need not ask Yams for them.
///
/// Yams' `allKeys` compares each key with two freshly built marker nodes (`yamlAnchor`,
/// `yamlTag`) before handing it out; on a large scenario that was the largest single cost of
/// decoding (issue 31). The index holds what `allKeys` would give: each scalar key's text in
/// document order, leaving out those two markers. It is built only for documents without merge
/// keys (`<<`), whose mappings Yams flattens before decoding, so a decoder's mapping is always
/// the node the index saw; a mapping the walk did not reach (a complex key) is simply absent,
/// and ``YAMLFields`` then asks Yams.
final class YAMLKeyIndex: Sendable {
    /// Where a node starts in the text.
    struct Position: Hashable, Sendable {
        var line: Int
        var column: Int
    }

    /// The `userInfo` key a decoder carries the index under.
    static let userInfoKey = CodingUserInfoKey(rawValue: "SwiftBLE.YAMLKeyIndex")

    private let keys: [Position: [String]]

    /// Indexes every mapping reachable through values and sequence elements from `root`.
    init(_ root: Node) {
        var keys: [Position: [String]] = [:]
        var pending = [root]
        while let node = pending.popLast() {
            switch node {
            case let .mapping(mapping):
                if let mark = mapping.mark {
                    keys[Position(line: mark.line, column: mark.column)] = mapping.compactMap { pair in
                        guard let text = pair.key.scalar?.string, text != "yamlAnchor", text != "yamlTag" else { return nil }
                        return text
                    }
                }
                pending.append(contentsOf: mapping.values)
            case let .sequence(sequence):
                pending.append(contentsOf: sequence)
            case .scalar, .alias:
                break
            }
        }
        self.keys = keys
    }

    /// The keys of the mapping `decoder` decodes, when the index holds it.
    static func keys(of decoder: any Decoder) -> [String]? {
        guard let userInfoKey, let index = decoder.userInfo[userInfoKey] as? YAMLKeyIndex, let mark = decoder.mark else {
            return nil
        }
        return index.keys[Position(line: mark.line, column: mark.column)]
    }
}
