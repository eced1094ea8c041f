import BLEBackend
import BLEFleetSimulation
import BLEFleetStore
import BLESystems
import BLEWorld
import Foundation

/// What the field systems' tests share: the bundled scenarios and their setups for the
/// systems' runners (BLESystems), the back end served on a free port, and the truth read as visits.
enum SystemsTesting {
    /// A bundled scenario from `Scenarios/`.
    static func scenario(_ name: String) throws -> Scenario {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/\(name).yaml")
        return try ScenarioLoader.load(path: url.standardizedFileURL.path)
    }

    /// A new empty directory under the system's temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "swiftble-systems-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The setup of a bundled scenario's file in `Scenarios/`, the source of truth, run with
    /// its own seed and duration; the store is a temporary file unless `storePath` says.
    static func setup(_ name: String, storePath: String? = nil) throws -> SystemSetup {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/\(name).yaml")
        return try SystemSetup(named: url.standardizedFileURL.path, storePath: storePath)
    }

    /// Serves `store` with the real back end on a free port of 127.0.0.1 while `body` runs.
    static func withBackend<Result: Sendable>(_ store: any FleetStore, _ body: @Sendable (URL) async throws -> Result) async throws -> Result {
        let (ports, portInput) = AsyncStream.makeStream(of: Int.self)
        let server = Task { try await BackendServer(store: store).run { portInput.yield($0) } }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw CancellationError()
        }
        return try await body(url)
    }

    /// One stay of an identity in a zone, in seconds of simulated time.
    struct Visit: Hashable, CustomStringConvertible {
        var zone: String
        var start: Double
        var end: Double
        var description: String { "\(zone) \(start)–\(end) s" }
    }

    /// The zones `identity` was in, by the world's truth, as consecutive visits.
    static func visits(of identity: String, in truth: FleetTruth) -> [Visit] {
        var visits: [Visit] = []
        var current: Visit?
        for sample in truth.samples[identity] ?? [] {
            if let open = current, open.zone != sample.zone {
                visits.append(Visit(zone: open.zone, start: open.start, end: sample.time))
                current = nil
            }
            if current == nil, let zone = sample.zone { current = Visit(zone: zone, start: sample.time, end: sample.time) }
        }
        if let open = current, let last = truth.samples[identity]?.last { visits.append(Visit(zone: open.zone, start: open.start, end: last.time)) }
        return visits
    }
}
