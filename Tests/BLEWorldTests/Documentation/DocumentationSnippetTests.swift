import Foundation
import SimulatedTesting
import Testing

/// Every Swift block of README.md, docs/ and the DocC articles is a program a newcomer can
/// copy, as Rust's doc tests check theirs: the programs are run by
/// ``DocumentationProgramTests``; here a `Package.swift` block is type-checked as a manifest
/// that may only name this package's library products, and the blocks that are deliberately
/// fragments are counted: few, each saying why in its fence (```` ```swift fragment: why ````).
@Suite("The documentation's Swift snippets", .serialized, .ownThread)
struct DocumentationSnippetTests {
    /// At most this many fragments in the whole documentation: a fragment is untested.
    static let fragmentBudget = 3

    /// How long a tool may take, in wall-clock time, before it is stopped and fails: a
    /// bound for one that never ends, generous for a loaded machine, not a speed check.
    static let toolTimeout = Duration.seconds(240)

    static func snippets() -> [DocumentationSnippet] { DocumentationSnippet.all(in: packageRoot()) }

    static func programs() -> [DocumentationSnippet] { snippets().filter { !$0.isFragment && !$0.isManifest } }

    static func manifests() -> [DocumentationSnippet] { snippets().filter { !$0.isFragment && $0.isManifest } }

    static var built: Bool { SnippetToolchain.build != nil }

    @Test("There are snippets to check: README.md's, and the DocC articles' of each catalog")
    func found() {
        let files = Set(Self.programs().map(\.file))
        #expect(files.contains("README.md"))
        for catalog in ["BLE.docc", "OpenCoreBluetooth.docc", "OpenCoreLocation.docc"] {
            #expect(files.contains { $0.contains(catalog) }, "no program in \(catalog)")
        }
    }

    @Test("Fragments are few, and each says why it is one")
    func fragments() {
        let fragments = Self.snippets().filter(\.isFragment)
        #expect(fragments.count <= Self.fragmentBudget,
                "\(fragments.count) fragments (\(fragments.map(\.description).joined(separator: ", "))); make them programs")
        for fragment in fragments {
            #expect(fragment.fragmentReason.count >= 10, "\(fragment) does not say why it is a fragment (```swift fragment: why)")
        }
    }

    @Test("Each manifest type-checks and names only this package's library products",
          arguments: DocumentationSnippetTests.manifests())
    func manifest(_ snippet: DocumentationSnippet) throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Package.swift")
        try snippet.code.write(to: file, atomically: true, encoding: .utf8)
        let api = URL(fileURLWithPath: try swiftcPath()).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/pm/ManifestAPI").path
        let result = try runProcess("/usr/bin/env", ["swiftc", "-typecheck", "-swift-version", "6", "-I", api,
                                                     "-package-description-version", "6.1", file.path],
                                    timeout: Self.toolTimeout)
        #expect(result.status == 0, "\(snippet) is not a manifest that type-checks:\n\(result.stderr)")
        let products = SnippetToolchain.libraryProducts()
        let named = try Regex(#"\.product\(name: "([^"]+)", package: "SwiftBLE""#)
        for match in snippet.code.matches(of: named) {
            let product = String(match.output[1].substring ?? "")
            #expect(products.contains(product), "\(snippet) depends on \(product), which Package.swift does not offer")
        }
    }

    /// A fresh directory for one snippet's files.
    func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Where `swiftc` is, to find the toolchain's manifest API beside it.
    func swiftcPath() throws -> String {
        let result = try runProcess("/usr/bin/env", ["which", "swiftc"], timeout: .seconds(30))
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
