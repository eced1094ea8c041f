import Foundation
import Testing

/// README.md is the front door and docs/ the house behind it: every relative link between them
/// leads somewhere, and the front door stays short enough to read in two minutes.
@Suite("documentation links")
struct DocumentationLinkTests {
    /// Tests/BLECommandLineTests/DocumentationLinkTests.swift → the repository root.
    static let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every markdown file under docs/, as paths relative to the root.
    static func documents() throws -> [String] {
        var paths = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        guard let walker = FileManager.default.enumerator(atPath: docs.path) else { return paths }
        for case let path as String in walker where path.hasSuffix(".md") { paths.append("docs/" + path) }
        return paths.sorted()
    }

    /// The targets of the inline links `[text](target)` of a markdown text, outside code blocks and code spans.
    static func links(in markdown: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
            if inFence { continue }
            // Code spans hold examples, not links.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                var target = String(after[..<close]).trimmingCharacters(in: .whitespaces)
                if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }  // [a](b "title")
                if target.hasPrefix("<"), target.hasSuffix(">") { target = String(target.dropFirst().dropLast()) }
                targets.append(target)
                rest = after[close...]
            }
        }
        return targets
    }

    /// The anchors GitHub gives a markdown file's headings: lowercase, punctuation removed, spaces → '-',
    /// a repeated heading numbered -1, -2, ….
    static func anchors(in markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let text = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = String(text.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    /// What is wrong with a link from `document`; `nil` when it resolves (or leaves the repository).
    static func problem(with target: String, in document: String) throws -> String? {
        if target.isEmpty { return "an empty link" }
        if target.contains("://") || target.hasPrefix("mailto:") { return nil }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let path = parts[0].removingPercentEncoding ?? parts[0]
        let base = root.appendingPathComponent(document).deletingLastPathComponent()
        let file = path.isEmpty ? root.appendingPathComponent(document) : base.appendingPathComponent(path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else { return "no file \(path)" }
        guard parts.count == 2, file.pathExtension == "md", !isDirectory.boolValue else { return nil }
        let anchor = parts[1]
        let text = try String(contentsOf: file, encoding: .utf8)
        return anchors(in: text).contains(anchor) ? nil : "no heading #\(anchor) in \(path.isEmpty ? document : path)"
    }

    @Test("The link and anchor rules follow GitHub's")
    func rules() {
        #expect(Self.links(in: "see [a](docs/a.md) and [b](b.md#x \"t\"), not `[c](c.md)`\n```\n[d](d.md)\n```\n") == ["docs/a.md", "b.md#x"])
        #expect(Self.anchors(in: "# SwiftBLE\n## The two commands\n### `ble gatt dump`\n## What's next?\n## Layers\n## Layers\n")
            == ["swiftble", "the-two-commands", "ble-gatt-dump", "whats-next", "layers", "layers-1"])
    }

    @Test("Every relative link in README.md and docs/ points to a file that exists")
    func relativeLinks() throws {
        var broken: [String] = []
        var count = 0
        for document in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for target in Self.links(in: text) where !target.hasPrefix("#") {
                count += 1
                var fileOnly = target
                if let hash = fileOnly.firstIndex(of: "#") { fileOnly = String(fileOnly[..<hash]) }
                if let problem = try Self.problem(with: fileOnly, in: document) { broken.append("\(document): (\(target)) \(problem)") }
            }
        }
        #expect(count > 0, "no links found: is \(Self.root.path) the repository?")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test("Every #anchor in README.md and docs/ names a heading of the file it points into")
    func anchorLinks() throws {
        var broken: [String] = []
        for document in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for target in Self.links(in: text) where target.contains("#") && !target.contains("://") {
                if let problem = try Self.problem(with: target, in: document) { broken.append("\(document): (\(target)) \(problem)") }
            }
        }
        #expect(broken.isEmpty, "broken anchors:\n\(broken.joined(separator: "\n"))")
    }

    @Test("README.md is at most 150 lines, none longer than 400 characters")
    func readmeIsShort() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        #expect(lines.count <= 150, "README.md has \(lines.count) lines")
        let long = lines.enumerated().filter { $0.element.count > 400 }.map { "line \($0.offset + 1): \($0.element.count) characters" }
        #expect(long.isEmpty, "README.md lines longer than 400 characters: \(long)")
    }
}
