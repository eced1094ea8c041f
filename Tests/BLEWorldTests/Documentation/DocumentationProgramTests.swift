import Foundation
import SimulatedTesting
import Testing

/// Every Swift block of README.md, docs/ and the DocC articles that is not a fragment or a
/// manifest is a whole program, and it works as a newcomer who copies it would see it work,
/// as Rust's doc tests do: it is compiled on its own as `main.swift`, linked against this
/// build's libraries, and run on the default simulated world (no `$SWIFTBLE_HCI`, unless an
/// HTML comment above the block names a scenario the text around it runs), and it must exit
/// with status 0.
///
/// The cases run side by side (each waits on a child process, on a thread of its own, so
/// `.ownThread`): the programs talk to a world paced to the wall clock and mostly wait, while
/// compiling is held to two at a time, the machine's cores.
@Suite("The documentation's programs compile, link and run", .ownThread)
struct DocumentationProgramTests {
    /// How long a program may run, in wall-clock time, before it is stopped and fails: a
    /// bound for one that never ends, generous for a loaded machine (the longest, the walk
    /// past a shop, takes about 80 s of the world's real time), not a speed check.
    static let runTimeout = Duration.seconds(240)

    /// Compilers running at once: each takes a core and a good deal of memory.
    static let compilers = DispatchSemaphore(value: 2)

    @Test("Each program compiles, links against the libraries as built, and runs to exit status 0",
          .enabled(if: DocumentationSnippetTests.built, "the package's debug build is not at .build/debug (swift build first)"),
          arguments: DocumentationSnippetTests.programs())
    func runs(_ snippet: DocumentationSnippet) throws {
        let paths = try #require(SnippetToolchain.searchPaths())
        let library = try SnippetToolchain.sharedLibrary()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ble-snippet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("main.swift")
        try snippet.code.write(to: file, atomically: true, encoding: .utf8)
        let program = directory.appendingPathComponent("snippet")
        Self.compilers.wait()
        let compiled = Result {
            try runProcess("/usr/bin/env", ["swiftc", "-swift-version", "6", "-module-name", "Snippet"] + paths
                            + ["-L", library.directory.path, "-l" + library.name,
                               "-Xlinker", "-rpath", "-Xlinker", library.directory.path, "-o", program.path, file.path],
                           timeout: Self.runTimeout)
        }
        Self.compilers.signal()
        let compilation = try compiled.get()
        try #require(compilation.status == 0, "\(snippet) does not compile:\n\(compilation.stderr)")
        // Run as a newcomer runs it: no controller named (the default simulated world) unless
        // the documentation says otherwise, in a directory of its own with the scenarios at
        // hand, keeping its default bond stores in a data home of its own.
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("Scenarios"),
                                                   withDestinationURL: packageRoot().appendingPathComponent("Scenarios"))
        let environment = ["XDG_DATA_HOME": directory.appendingPathComponent("data").path].merging(snippet.environment) { $1 }
        let run = try runProcess(program.path, [], directory: directory, environment: environment,
                                 unsetting: snippet.environment["SWIFTBLE_HCI"] == nil ? ["SWIFTBLE_HCI"] : [],
                                 timeout: Self.runTimeout)
        #expect(!run.timedOut, "\(snippet) was still running after \(Self.runTimeout):\n\(run.stdout)\n\(run.stderr)")
        #expect(run.status == 0, "\(snippet) exited with status \(run.status):\n\(run.stdout)\n\(run.stderr)")
    }
}
