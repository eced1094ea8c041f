import Foundation

/// One ```` ```swift ```` block of the documentation: where it is, what its fence says and its
/// text. README.md, docs/*.md and the DocC articles of `BLE`, `OpenCoreBluetooth` and
/// `OpenCoreLocation` are read, as a newcomer reads them.
struct DocumentationSnippet: CustomStringConvertible, Sendable {
    /// The file, relative to the package's root.
    var file: String
    /// The line of the opening fence, from 1.
    var line: Int
    /// The words of the fence after ```` ```swift ````: `fragment` and its reason, or nothing.
    var fence: String
    var code: String

    var description: String { "\(file):\(line)" }

    /// A block the documentation says is not a whole program (```` ```swift fragment: why ````).
    var isFragment: Bool { fence.hasPrefix("fragment") }

    /// Why a fragment is one: the fence's words after `fragment`.
    var fragmentReason: String {
        fence.dropFirst("fragment".count).trimmingCharacters(in: CharacterSet(charactersIn: ": ").union(.whitespaces))
    }

    /// The environment the program runs with, from the `NAME=VALUE` words of an HTML comment
    /// on the line above the fence (invisible on GitHub and in DocC): e.g.
    /// `<!-- The documentation's tests run this program with SWIFTBLE_HCI=sim:Scenarios/walk.yaml -->`
    /// for a program about a scenario, run as the text around it says. The program runs in a
    /// directory of its own that links to the package's `Scenarios/`.
    var environment: [String: String] = [:]

    /// A package manifest (`Package.swift`), recognised by its tools-version line.
    var isManifest: Bool { code.hasPrefix("// swift-tools-version") }

    /// The documentation files whose Swift blocks are checked, relative to the package's root.
    static func files(in root: URL) -> [String] {
        var files = ["README.md"]
        let folders = ["docs", "Sources/BLE/BLE.docc", "Sources/OpenCoreBluetooth/OpenCoreBluetooth.docc",
                       "Sources/OpenCoreLocation/OpenCoreLocation.docc"]
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            files += names.filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
        }
        return files
    }

    /// Every ```` ```swift ```` block of the documentation under `root`, fragments included.
    static func all(in root: URL) -> [DocumentationSnippet] {
        files(in: root).flatMap { file -> [DocumentationSnippet] in
            guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { return [] }
            return blocks(of: text, file: file)
        }
    }

    /// The Swift blocks of one Markdown text.
    static func blocks(of text: String, file: String) -> [DocumentationSnippet] {
        var found: [DocumentationSnippet] = []
        var current: (line: Int, fence: String, lines: [String])?
        var comment: [String: String] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var open = current {
                if trimmed == "```" {
                    found.append(DocumentationSnippet(file: file, line: open.line, fence: open.fence,
                                                      code: open.lines.joined(separator: "\n") + "\n", environment: comment))
                    current = nil
                    comment = [:]
                } else {
                    open.lines.append(String(line))
                    current = open
                }
            } else if trimmed.hasPrefix("```swift") {
                let info = trimmed.dropFirst(3)
                let words = info.split(separator: " ", maxSplits: 1)
                if words.first == "swift" {
                    current = (index + 1, words.count > 1 ? String(words[1]).trimmingCharacters(in: .whitespaces) : "", [])
                }
            } else if trimmed.hasPrefix("<!--") {
                comment = [:]
                for word in trimmed.split(separator: " ") {
                    let parts = word.split(separator: "=", maxSplits: 1)
                    if parts.count == 2, parts[0].allSatisfy({ $0.isUppercase || $0 == "_" }) {
                        comment[String(parts[0])] = String(parts[1])
                    }
                }
            } else if !trimmed.isEmpty {
                comment = [:]
            }
        }
        return found
    }
}
