import BLEFleet
@testable import BLEFleetStore
import FleetStoreTesting
import Foundation
import Testing

/// The store's behaviours, the same on both engines (PostgreSQL only when SWIFTBLE_TEST_POSTGRES is set).
@Suite("Fleet store")
struct FleetStoreTests {
    @Test("Migrate creates the schema and records the current version", arguments: TestEngine.available)
    func migrateCreatesTheSchema(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            #expect(try await made.store.count() == 0)
            #expect(try await made.store.gateways().isEmpty)
            try await made.execute("INSERT INTO presence_events (algorithm, identity, zone, kind, time_us) VALUES ('strongest', 'tag', 'hall', 'enter', 1)")
        }
    }

    @Test("Migrating twice is a no-op", arguments: TestEngine.available)
    func migratingTwiceIsANoOp(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            try await made.store.write(makeBatch(sequences: 0..<5))
            try await made.store.migrate()
            let other = try await made.openAnother()
            try await other.migrate()
            await other.close()
            #expect(try await made.store.count() == 5)
        }
    }

    @Test("A database written by a newer SwiftBLE is refused", arguments: TestEngine.available)
    func futureSchemaIsRefused(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            try await made.execute("INSERT INTO fleet_schema_migrations (version, applied_at, description) VALUES (99, 0, 'from the future')")
            await made.store.close()
            let reopened = try await made.openAnother()
            let error = await #expect(throws: FleetStoreError.self) { try await reopened.migrate() }
            await reopened.close()
            #expect(error == .schemaFromTheFuture(found: 99, supported: FleetSchema.currentVersion))
            #expect(error?.description.contains("the database was written by a newer SwiftBLE (schema 99; this one knows \(FleetSchema.currentVersion)): upgrade ble") == true)
        }
    }

    @Test("Writing a batch again inserts nothing", arguments: TestEngine.available)
    func rewriteIsIdempotent(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            #expect(try await made.store.write(makeBatch(sequences: 0..<10)) == 10)
            #expect(try await made.store.write(makeBatch(sequences: 0..<10)) == 0)
            #expect(try await made.store.write(makeBatch(sequences: 5..<15)) == 5)
            #expect(try await made.store.count() == 15)
        }
    }

    @Test("A sighting reads back as it was written", arguments: TestEngine.available)
    func roundTrip(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            var batch = makeBatch(sequences: 0..<4)
            batch.sightings[1].frame = []
            try await made.store.write(batch)
            #expect(try await made.store.sightings(from: 0, to: .max) == batch.sightings)
        }
    }

    @Test("Sightings come ordered by time then key, filtered by time, identity and gateway", arguments: TestEngine.available)
    func queries(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            let hall = makeBatch(gateway: "gw-hall", sequences: 0..<6)
            let door = makeBatch(gateway: "gw-door", run: 3, sequences: 0..<6)
            try await made.store.write(hall)
            try await made.store.write(door)
            let all = try await made.store.sightings(from: marchFirst, to: marchFirst + oneDay)
            #expect(all.count == 12)
            #expect(all.map(\.key) == (hall.sightings + door.sightings).sorted { ($0.time, $0.key) < ($1.time, $1.key) }.map(\.key))
            let window = try await made.store.sightings(from: marchFirst + 2_000_000, to: marchFirst + 4_000_000)
            #expect(window.map(\.time) == [marchFirst + 2_000_000, marchFirst + 2_000_000, marchFirst + 3_000_000, marchFirst + 3_000_000])
            let tag = try await made.store.sightings(from: 0, to: .max, identity: "ibeacon:tag-1", gateway: "gw-door")
            #expect(tag.map(\.sequence) == [1, 4])
            #expect(try await made.store.sightings(from: 0, to: .max, identity: nil, gateway: nil, limit: 3).count == 3)
            #expect(try await made.store.latest(identity: "ibeacon:tag-2")?.key == Sighting.Key(gateway: "gw-hall", run: 7, sequence: 5))
            #expect(try await made.store.latest(identity: "nobody") == nil)
            #expect(try await made.store.identities() == ["ibeacon:tag-0", "ibeacon:tag-1", "ibeacon:tag-2"])
            #expect(try await made.store.gateways() == [
                FleetGateway(name: "gw-door", zone: nil, firstSeen: marchFirst, lastSeen: marchFirst + 5_000_000),
                FleetGateway(name: "gw-hall", zone: nil, firstSeen: marchFirst, lastSeen: marchFirst + 5_000_000),
            ])
        }
    }

    @Test("A gateway's row keeps its earliest and latest times", arguments: TestEngine.available)
    func gatewayRowSpansBatches(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            try await made.store.write(makeBatch(sequences: 10..<12, start: marchFirst + oneDay))
            try await made.store.write(makeBatch(sequences: 0..<2, start: marchFirst))
            #expect(try await made.store.gateways() == [FleetGateway(name: "gw-hall", zone: nil, firstSeen: marchFirst, lastSeen: marchFirst + oneDay + 11_000_000)])
        }
    }

    @Test("Retention removes the days before the cutoff and keeps the rest", arguments: TestEngine.available)
    func retention(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            for day in Int64(0)..<3 {
                try await made.store.write(makeBatch(sequences: (day * 10)..<(day * 10 + 4), start: marchFirst + day * oneDay))
            }
            let dropped = try await made.store.dropSightings(before: marchFirst + 2 * oneDay)
            #expect(dropped == ["sightings_20250301", "sightings_20250302"])
            #expect(try await made.store.count() == 4)
            #expect(try await made.store.sightings(from: 0, to: .max).allSatisfy { $0.time >= marchFirst + 2 * oneDay })
            #expect(try await made.store.dropSightings(before: marchFirst + 2 * oneDay) == [])
            // A day dropped can be written again (PostgreSQL recreates its partition).
            #expect(try await made.store.write(makeBatch(sequences: 0..<4)) == 4)
        }
    }

    @Test("A closed store says so", arguments: TestEngine.available)
    func closedStore(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            await made.store.close()
            await #expect(throws: FleetStoreError.closed) { try await made.store.count() }
        }
    }
}

/// Two store instances on one database, as two gateway processes. Serialized: on SQLite the
/// second connection waits on the first's lock inside sqlite-nio's shared thread pool, and two
/// such waits at once could hold both of its threads.
@Suite("Concurrent gateways", .serialized)
struct ConcurrentGatewayTests {
    @Test("Two gateways migrating at once leave one schema", arguments: TestEngine.available)
    func concurrentMigrations(engine: TestEngine) async throws {
        try await withStore(engine, migrate: false) { (made: TestStore) async throws in
            let other = try await made.openAnother()
            async let first: Void = made.store.migrate()
            async let second: Void = other.migrate()
            var failure: (any Error)?
            do { _ = try await (first, second) } catch { failure = error }
            await other.close()
            if let failure { throw failure }
            try await made.store.write(makeBatch(sequences: 0..<3))
            #expect(try await made.store.count() == 3)
        }
    }

    @Test("Two writers of the same batch store one copy", arguments: TestEngine.available)
    func concurrentWritersStoreOneCopy(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            let other = try await made.openAnother()
            let batch = makeBatch(sequences: 0..<200, start: marchFirst + 5 * oneDay)
            async let first = made.store.write(batch)
            async let second = other.write(batch)
            var written: (Int, Int)?
            var failure: (any Error)?
            do { written = try await (first, second) } catch { failure = error }
            await other.close()
            if let failure { throw failure }
            let (a, b) = written ?? (0, 0)
            #expect(a + b == 200)
            #expect(try await made.store.count() == 200)
        }
    }
}
