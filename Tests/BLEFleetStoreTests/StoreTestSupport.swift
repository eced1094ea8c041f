import BLEFleet
@testable import BLEFleetStore
import Foundation
import Testing

/// 2025-03-01T00:00:00Z in microseconds: the day the test sightings start.
let marchFirst: Int64 = 1_740_787_200_000_000
let oneDay: Int64 = 86_400_000_000

/// A batch of one gateway run: sequence numbers `sequences`, sighting `n` at `start + n * step`
/// (a key always comes with the same time, as a real gateway's does).
func makeBatch(gateway: String = "gw-hall", run: Int64 = 7, sequences: Range<Int64>, start: Int64 = marchFirst,
               step: Int64 = 1_000_000, identity: (Int64) -> String = { "ibeacon:tag-\($0 % 3)" }) -> SightingBatch {
    SightingBatch(sightings: sequences.map { sequence in
        Sighting(gateway: gateway, run: run, sequence: sequence, identity: identity(sequence), address: "C0:11:22:33:44:\(String(format: "%02X", sequence % 256))",
                 addressIsRandom: sequence % 2 == 0, time: start + sequence * step, rssi: -40 - Int(sequence % 50),
                 txPower: sequence % 4 == 0 ? nil : -59, frame: [0x02, 0x01, 0x06, UInt8(sequence % 256)])
    })
}

/// A fresh, empty directory under the system's temporary directory.
func makeTemporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "ble-store-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The engines a store test runs on: SQLite always, PostgreSQL when `SWIFTBLE_TEST_POSTGRES` is set.
enum TestEngine: String, CustomStringConvertible, Sendable {
    case sqlite
    case postgres

    var description: String { rawValue }

    static var available: [TestEngine] { PostgresTesting.adminURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// A store made for one test, with what to do afterwards.
struct TestStore: Sendable {
    let store: any FleetStore
    /// A second store on the same database (another gateway process).
    let openAnother: @Sendable () async throws -> any FleetStore
    let cleanUp: @Sendable () async -> Void

    /// A migrated store on a database of its own.
    static func make(_ engine: TestEngine, migrate: Bool = true) async throws -> TestStore {
        let made: TestStore
        switch engine {
        case .sqlite:
            let directory = try makeTemporaryDirectory()
            let path = directory + "/fleet.sqlite"
            made = TestStore(store: SQLiteFleetStore(path: path), openAnother: { SQLiteFleetStore(path: path) },
                             cleanUp: { try? FileManager.default.removeItem(atPath: directory) })
        case .postgres:
            let target = try await PostgresTesting.makeDatabase()
            made = TestStore(store: PostgresFleetStore(configuration: target), openAnother: { PostgresFleetStore(configuration: target) },
                             cleanUp: { await PostgresTesting.dropDatabase(target.database) })
        }
        if migrate { try await made.store.migrate() }
        return made
    }

    /// Runs a statement on the test's database, whichever the engine.
    func execute(_ sql: String) async throws {
        if let sqlite = store as? SQLiteFleetStore { try await sqlite.runStatement(sql) }
        if let postgres = store as? PostgresFleetStore { try await postgres.runStatement(sql) }
    }
}

/// The PostgreSQL server the tests use, when `SWIFTBLE_TEST_POSTGRES` names one.
enum PostgresTesting {
    /// The admin URL, or `nil` (and a line saying why the PostgreSQL tests are skipped, once).
    static let adminURL: String? = {
        if let url = ProcessInfo.processInfo.environment["SWIFTBLE_TEST_POSTGRES"], !url.isEmpty { return url }
        print("PostgreSQL tests skipped: SWIFTBLE_TEST_POSTGRES is not set (eval \"$(scripts/test-postgres.sh start)\" starts a throwaway cluster; .ci/run does)")
        return nil
    }()

    /// The script that stops and starts servers (`SWIFTBLE_TEST_POSTGRES_CTL`).
    static let controlScript: String? = ProcessInfo.processInfo.environment["SWIFTBLE_TEST_POSTGRES_CTL"].flatMap { $0.isEmpty ? nil : $0 }

    static var isConfigured: Bool { adminURL != nil }

    static func adminTarget() throws -> PostgresTarget {
        guard let adminURL, case .postgres(let target) = try DatabaseURL(parsing: adminURL) else {
            throw FleetStoreError.invalidURL(adminURL ?? "", reason: "SWIFTBLE_TEST_POSTGRES is not a postgres:// URL")
        }
        return target
    }

    /// Creates `swiftble_t_<random>` so that tests run in parallel without sharing tables.
    static func makeDatabase() async throws -> PostgresTarget {
        let admin = PostgresFleetStore(configuration: try adminTarget())
        let name = "swiftble_t_\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        do {
            try await admin.runStatement("CREATE DATABASE \(name)")
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
        return try adminTarget().with(database: name)
    }

    static func dropDatabase(_ name: String) async {
        guard let target = try? adminTarget() else { return }
        let admin = PostgresFleetStore(configuration: target)
        try? await admin.runStatement("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        await admin.close()
    }

    /// Runs the cluster script with `arguments` and extra environment, its output to /dev/null.
    /// (posix_spawn and waitpid: Foundation's Process.waitUntilExit was seen never to return here.)
    static func control(_ arguments: [String], environment: [String: String]) throws {
        guard let controlScript else { throw FleetStoreError.invalidURL("", reason: "SWIFTBLE_TEST_POSTGRES_CTL is not set") }
        let argv = ["/usr/bin/env"] + environment.map { "\($0)=\($1)" } + ["/bin/bash", controlScript] + arguments
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw FleetStoreError.spoolIOError(path: controlScript, reason: "posix_spawn failed (\(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0, "\(controlScript) \(arguments) exited with status \(status)")
    }
}

/// Runs `body` on a fresh store of `engine`, then closes it and removes its database, also when `body` throws.
func withStore(_ engine: TestEngine, migrate: Bool = true, _ body: (TestStore) async throws -> Void) async throws {
    let made = try await TestStore.make(engine, migrate: migrate)
    do {
        try await body(made)
    } catch {
        await made.store.close()
        await made.cleanUp()
        throw error
    }
    await made.store.close()
    await made.cleanUp()
}
