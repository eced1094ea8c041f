import Foundation
import BLEFleetStore

/// A migrated store made for one test, on a database of its own, with what to do afterwards.
public struct TestStore: Sendable {
    /// The store the test uses.
    public let store: any FleetStore
    /// A second store on the same database (another gateway process).
    public let openAnother: @Sendable () async throws -> any FleetStore
    /// Removes the store's directory or drops its database.
    public let cleanUp: @Sendable () async -> Void

    /// A store of `engine` on a database of its own, migrated unless `migrate` is false
    /// (so that a test can start from an older schema).
    public static func make(_ engine: TestEngine, migrate: Bool = true) async throws -> TestStore {
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
    public func execute(_ sql: String) async throws {
        if let sqlite = store as? SQLiteFleetStore { try await sqlite.runStatement(sql) }
        if let postgres = store as? PostgresFleetStore { try await postgres.runStatement(sql) }
    }
}

/// Runs `body` on a fresh store of `engine`, then closes it and removes its database, also when `body` throws.
public func withStore(_ engine: TestEngine, migrate: Bool = true, _ body: (TestStore) async throws -> Void) async throws {
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
