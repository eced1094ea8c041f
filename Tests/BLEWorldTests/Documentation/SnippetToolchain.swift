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
    /// tests reach) that belong to a library target in Sources/ or to a dependency's target,
    /// leaving out the test targets, their support and examples, the `ble` executable's
    /// target (it has a `main`) and the test runner's own objects. `nil` without a build.
    static func libraryObjects() -> [String]? {
        guard let build else { return nil }
        let products = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
        guard let product = products.first(where: { $0.hasSuffix("PackageTests.product") }),
              let list = try? String(contentsOf: build.appendingPathComponent(product).appendingPathComponent("Objects.LinkFileList"),
                                     encoding: .utf8)
        else { return nil }
        let root = packageRoot()
        let sources = Set((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [])
            .subtracting(["BLECommandLine"])
        let local = localTargets()
        return list.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
            .filter { path in
                // A target's objects are in TARGET.build/ right under the build directory; the
                // objects in Modules/ only carry the modules' ASTs for the debugger.
                guard path.hasPrefix(build.path + "/"),
                      let folder = path.dropFirst(build.path.count + 1).split(separator: "/").first,
                      folder.hasSuffix(".build") || folder.hasSuffix(".derived")
                else { return false }
                let target = String(folder.prefix(while: { $0 != "." }))
                if sources.contains(target) { return true }
                return !local.contains(target) && !folder.contains("PackageTests") && !folder.contains("PackageDiscoveredTests")
            }
    }

    /// The names of the targets Package.swift declares, of every kind.
    static func localTargets() -> Set<String> {
        guard let manifest = try? String(contentsOf: packageRoot().appendingPathComponent("Package.swift"), encoding: .utf8),
              let pattern = try? NSRegularExpression(pattern: #"[tT]arget\(\s*name:\s*"([^"]+)""#)
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
    /// ``libraryObjects()``: linking the package's thousand objects into each snippet would
    /// cost a link of the whole package per block.
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

    private static func makeSharedLibrary() throws -> (directory: URL, name: String) {
        guard let objects = libraryObjects(), !objects.isEmpty else {
            throw Failure(description: "the test product's Objects.LinkFileList is not in the build")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-snippets-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let list = directory.appendingPathComponent("objects.txt")
        try objects.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let name = "SwiftBLESnippetLibraries"
        let result = try runProcess("/usr/bin/env", ["swiftc", "-emit-library", "-module-name", name,
                                                     "-o", directory.appendingPathComponent("lib\(name).so").path, "@" + list.path],
                                    timeout: .seconds(600))
        guard result.status == 0 else {
            throw Failure(description: "linking the package's libraries failed:\n\(result.stderr)")
        }
        return (directory, name)
    }
}
