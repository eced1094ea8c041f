import Foundation
import Synchronization

/// How the documentation's snippets are compiled, linked and run against this package's own
/// debug build, as a newcomer's program that depends on its libraries would be: the build's
/// modules to import, and its library targets' object files, linked once into one shared
/// library that every snippet links against.
enum SnippetToolchain {
    /// The debug build's directory, `nil` when there is none with the `BLE` module in it.
    static var build: URL? {
        let build = packageRoot().appendingPathComponent(".build/debug").resolvingSymlinksInPath()
        let module = build.appendingPathComponent("Modules/BLE.swiftmodule").path
        return FileManager.default.fileExists(atPath: module) ? build : nil
    }

    /// The `swiftc` arguments that find this build's modules: its Swift modules, and the
    /// module maps and headers of the C modules they import. `nil` without a build.
    static func searchPaths() -> [String]? {
        guard let build else { return nil }
        var arguments = ["-I", build.appendingPathComponent("Modules").path]
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

    /// The object files a program using the package's libraries links: those of the test
    /// product's link list (SwiftPM's `Objects.LinkFileList`, which holds every target the
    /// tests reach), less the test targets and their support in Tests/, the executable
    /// targets (they have a `main`) and the test runner's own objects. What is left are the
    /// library targets, the examples some of them use, and the dependencies' targets, C ones
    /// included. `nil` without a build.
    static func libraryObjects() -> [String]? {
        guard let build else { return nil }
        let products = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        guard let product = products.first(where: { $0.hasSuffix("PackageTests.product") }),
              let list = try? String(contentsOf: build.appendingPathComponent(product).appendingPathComponent("Objects.LinkFileList"),
                                     encoding: .utf8)
        else { return nil }
        let support = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot().appendingPathComponent("Tests/Support").path)) ?? []
        let excluded = targets(declaredBy: "testTarget").union(targets(declaredBy: "executableTarget")).union(support)
        // One path a line, quoted when it holds a space (`'…/Integer rank.swift.o'`).
        return list.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) }
            .filter { path in
                // A target's objects are in TARGET.build/ right under the build directory; the
                // objects in Modules/ only carry the modules' ASTs for the debugger.
                guard path.hasPrefix(build.path + "/"),
                      let folder = path.dropFirst(build.path.count + 1).split(separator: "/").first,
                      folder.hasSuffix(".build")
                else { return false }
                let target = String(folder.dropLast(".build".count))
                return !excluded.contains(target) && !target.contains("PackageTests") && !target.contains("PackageDiscoveredTests")
            }
    }

    /// The names of the targets Package.swift declares with `kind` (`testTarget`,
    /// `executableTarget`).
    static func targets(declaredBy kind: String) -> Set<String> {
        guard let manifest = try? String(contentsOf: packageRoot().appendingPathComponent("Package.swift"), encoding: .utf8),
              let pattern = try? NSRegularExpression(pattern: #"\.\#(kind)\(\s*name:\s*"([^"]+)""#)
        else { return [] }
        let range = NSRange(manifest.startIndex..., in: manifest)
        return Set(pattern.matches(in: manifest, range: range).compactMap { match in
            Range(match.range(at: 1), in: manifest).map { String(manifest[$0]) }
        })
    }

    /// The names of the library products Package.swift declares: what a newcomer's manifest
    /// may depend on.
    static func libraryProducts() -> Set<String> {
        guard let manifest = try? String(contentsOf: packageRoot().appendingPathComponent("Package.swift"), encoding: .utf8),
              let pattern = try? NSRegularExpression(pattern: #"\.library\(\s*name:\s*"([^"]+)""#)
        else { return [] }
        let range = NSRange(manifest.startIndex..., in: manifest)
        return Set(pattern.matches(in: manifest, range: range).compactMap { match in
            Range(match.range(at: 1), in: manifest).map { String(manifest[$0]) }
        })
    }

    /// The shared library every snippet links against, made once per test process from
    /// ``libraryObjects()`` into `.build/documentation-snippets/`: linking the package's
    /// thousands of objects into each snippet would cost a link of the whole package per block.
    static func sharedLibrary() throws -> (directory: URL, name: String) {
        try libraryBuild.withLock { state in
            if let made = state { return try made.get() }
            let result = Result { try makeSharedLibrary() }
            state = result
            return try result.get()
        }
    }

    private static let libraryBuild = Mutex<Result<(directory: URL, name: String), any Error>?>(nil)

    /// What went wrong while building or running a snippet, with the tool's own words.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The C++ standard library, which BoringSSL's objects (swift-crypto, swift-nio-ssl) need.
    #if canImport(Darwin)
    static let cplusplusLibrary = "-lc++"
    #else
    static let cplusplusLibrary = "-lstdc++"
    #endif

    private static func makeSharedLibrary() throws -> (directory: URL, name: String) {
        guard let objects = libraryObjects(), !objects.isEmpty else {
            throw Failure(description: "the test product's Objects.LinkFileList is not in the build")
        }
        // Beside the build it is made from (176 MB; replaced at each run, never left in /tmp).
        let directory = packageRoot().appendingPathComponent(".build/documentation-snippets")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let list = directory.appendingPathComponent("objects.txt")
        // A response file: each path quoted, as some have spaces.
        try objects.map { "\"" + $0 + "\"" }.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let name = "SwiftBLESnippetLibraries"
        let result = try runProcess("/usr/bin/env", ["swiftc", "-emit-library", "-module-name", name,
                                                     "-o", directory.appendingPathComponent("lib\(name).so").path, "@" + list.path,
                                                     cplusplusLibrary],
                                    timeout: .seconds(600))
        guard result.status == 0 else {
            throw Failure(description: "linking the package's libraries failed:\n\(result.stderr)")
        }
        return (directory, name)
    }
}
