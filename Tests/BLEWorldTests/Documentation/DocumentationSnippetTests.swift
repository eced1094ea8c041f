import Foundation
import SimulatedTesting
import Testing

/// Every Swift block of README.md and docs/ compiles as a newcomer would paste it, as Rust's
/// doc tests do: each block is type-checked as a program of its own against the modules of
/// this build (`swiftc -typecheck` with the build's module search paths). A block that is
/// deliberately a fragment says so in its fence (```` ```swift fragment ````).
@Suite("The documentation's Swift snippets compile", .serialized, .ownThread)
struct DocumentationSnippetTests {
    /// One block: where it is and its text.
    struct Snippet: CustomStringConvertible, Sendable {
        var file: String
        var line: Int
        var code: String
        var description: String { "\(file):\(line)" }
    }

    /// The Swift blocks of README.md and docs/*.md that are not marked as fragments.
    static func snippets() -> [Snippet] {
        let root = packageRoot()
        var files = ["README.md"]
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        files += docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var found: [Snippet] = []
        for file in files {
            guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { continue }
            var current: (line: Int, lines: [String])?
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if var open = current {
                    if trimmed == "```" {
                        found.append(Snippet(file: file, line: open.line, code: open.lines.joined(separator: "\n") + "\n"))
                        current = nil
                    } else {
                        open.lines.append(String(line))
                        current = open
                    }
                } else if trimmed.hasPrefix("```swift") {
                    let words = trimmed.dropFirst(3).split(separator: " ")
                    if words.first == "swift", !words.contains("fragment") { current = (index + 1, []) }
                }
            }
        }
        return found
    }

    /// The `swiftc` arguments that find this build's modules: its Swift modules, and the
    /// module maps and headers of the C modules they import. `nil` when the build is not
    /// where this file expects it.
    static func searchPaths() -> [String]? {
        let build = packageRoot().appendingPathComponent(".build/debug").resolvingSymlinksInPath()
        let modules = build.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("BLE.swiftmodule").path) else { return nil }
        var arguments = ["-I", modules.path]
        var maps: [String] = []
        let products = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        for product in products where product.hasSuffix(".build") {
            let map = build.appendingPathComponent(product).appendingPathComponent("module.modulemap").path
            if FileManager.default.fileExists(atPath: map) { maps.append(map) }
        }
        let checkouts = packageRoot().appendingPathComponent(".build/checkouts")
        if let walker = FileManager.default.enumerator(atPath: checkouts.path) {
            for case let path as String in walker where path.hasSuffix("include/module.modulemap") && !path.contains("/Tests/") {
                let map = checkouts.appendingPathComponent(path)
                maps.append(map.path)
                arguments += ["-Xcc", "-I" + map.deletingLastPathComponent().path]
            }
        }
        for map in maps { arguments += ["-Xcc", "-fmodule-map-file=" + map] }
        return arguments
    }

    @Test("There are snippets to check, README.md's among them")
    func found() {
        let snippets = Self.snippets()
        #expect(snippets.contains { $0.file == "README.md" })
    }

    @Test("Each snippet type-checks against the library as built", .enabled(if: DocumentationSnippetTests.searchPaths() != nil,
          "the package's debug build is not at .build/debug (swift build first)"), arguments: DocumentationSnippetTests.snippets())
    func compiles(_ snippet: Snippet) throws {
        let paths = try #require(Self.searchPaths())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("main.swift")
        try snippet.code.write(to: file, atomically: true, encoding: .utf8)
        let result = try runProcess("/usr/bin/env", ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "Snippet"]
                                        + paths + [file.path])
        #expect(result.status == 0, "\(snippet) does not compile:\n\(result.stderr)")
    }
}
