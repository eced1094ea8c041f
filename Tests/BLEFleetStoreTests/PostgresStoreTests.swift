import BLEFleet
@testable import BLEFleetStore
import FleetStoreTesting
import Foundation
import Testing

/// What only PostgreSQL does: day partitions, logins, losing and finding the server.
@Suite("PostgreSQL fleet store")
struct PostgresStoreTests {
    // These need a server: SWIFTBLE_TEST_POSTGRES names one (scripts/test-postgres.sh start).
    @Test("Each UTC day gets its partition, and retention drops whole partitions", .enabled(if: PostgresTesting.isConfigured))
    func partitionsPerDay() async throws {
        try await withStore(.postgres) { (made: TestStore) async throws in
            let store = try #require(made.store as? PostgresFleetStore)
            // One batch crossing midnight: two partitions before one insert.
            try await store.write(makeBatch(sequences: 0..<4, start: marchFirst + oneDay - 2_000_000))
            try await store.write(makeBatch(sequences: 10..<12, start: marchFirst + 3 * oneDay))
            #expect(try await store.partitionNames() == ["sightings_20250301", "sightings_20250302", "sightings_20250304"])
            #expect(try await store.dropSightings(before: marchFirst + oneDay + 5) == ["sightings_20250301"])
            #expect(try await store.partitionNames() == ["sightings_20250302", "sightings_20250304"])
            #expect(try await store.count() == 4)
        }
    }

    @Test("A day partition another process dropped is created again", .enabled(if: PostgresTesting.isConfigured))
    func partitionDroppedElsewhere() async throws {
        try await withStore(.postgres) { (made: TestStore) async throws in
            try await made.store.write(makeBatch(sequences: 0..<2))
            let other = try await made.openAnother()
            #expect(try await other.dropSightings(before: marchFirst + oneDay) == ["sightings_20250301"])
            await other.close()
            #expect(try await made.store.write(makeBatch(sequences: 2..<4)) == 2)
        }
    }

    @Test("A wrong password is refused by name", .enabled(if: PostgresTesting.isConfigured))
    func wrongPassword() async throws {
        var target = try PostgresTesting.adminTarget()
        target.user = "swiftble_pw"
        target.password = "wrong-password"
        let store = PostgresFleetStore(configuration: target)
        let error = await #expect(throws: FleetStoreError.self) { try await store.ping() }
        await store.close()
        #expect(error == .authenticationRefused(user: "swiftble_pw", endpoint: target.endpointDescription))
        #expect(error?.description.hasPrefix("PostgreSQL refused the login for user swiftble_pw") == true)
    }

    @Test("The right password logs in", .enabled(if: PostgresTesting.isConfigured))
    func rightPassword() async throws {
        var target = try PostgresTesting.adminTarget()
        target.user = "swiftble_pw"
        target.password = "right-password"
        let store = PostgresFleetStore(configuration: target)
        try await store.ping()
        await store.close()
    }

    @Test("A database that does not exist is named", .enabled(if: PostgresTesting.isConfigured))
    func missingDatabase() async throws {
        let target = try PostgresTesting.adminTarget().with(database: "swiftble_no_such_db")
        let store = PostgresFleetStore(configuration: target)
        await #expect(throws: FleetStoreError.databaseNotFound(name: "swiftble_no_such_db", endpoint: target.endpointDescription)) { try await store.ping() }
        await store.close()
    }

    // No server needed: nothing listens on port 1.
    @Test("Nothing listening on the port is cannotConnect")
    func nothingListening() async throws {
        let target = PostgresTarget(endpoint: .tcp(host: "127.0.0.1", port: 1), user: "swiftble", password: nil, database: "x", sslMode: .disable)
        let store = PostgresFleetStore(configuration: target)
        let error = await #expect(throws: FleetStoreError.self) { try await store.ping() }
        await store.close()
        guard case .cannotConnect(let endpoint, let reason) = error else {
            Issue.record("expected cannotConnect, got \(String(describing: error))")
            return
        }
        #expect(endpoint == "127.0.0.1:1")
        #expect(reason.contains("refused"))
        #expect(error?.isTransient == true)
    }

    @Test("A write while the server is down fails with cannotConnect, and a write after it is back succeeds",
          .enabled(if: PostgresTesting.isConfigured && PostgresTesting.controlScript != nil), .timeLimit(.minutes(5)))
    func reconnectsAfterTheServerComesBack() async throws {
        // A cluster of its own, so that stopping it does not disturb the tests running beside this one,
        // on a port below Linux's ephemeral range (32768–60999), which no outgoing connection of
        // the tests running beside it can be holding.
        let environment = ["SWIFTBLE_PG_DIR": NSTemporaryDirectory() + "swiftble-pg-fault-\(UInt32.random(in: 0...UInt32.max))",
                           "SWIFTBLE_PG_PORT": String(Int.random(in: 26000..<27000))]
        try PostgresTesting.control(["start"], environment: environment)
        defer { try? PostgresTesting.control(["destroy"], environment: environment) }
        guard let port = environment["SWIFTBLE_PG_PORT"].flatMap(Int.init) else { return }
        let target = PostgresTarget(endpoint: .tcp(host: "127.0.0.1", port: port), user: "swiftble", password: nil,
                                    database: "swiftble_test", sslMode: .disable)
        let store = PostgresFleetStore(configuration: target)
        try await store.migrate()
        #expect(try await store.write(makeBatch(sequences: 0..<5)) == 5)

        try PostgresTesting.control(["stop"], environment: environment)
        let error = await #expect(throws: FleetStoreError.self) { try await store.write(makeBatch(sequences: 5..<10)) }
        #expect(error?.isTransient == true, "\(String(describing: error))")
        let again = await #expect(throws: FleetStoreError.self) { try await store.write(makeBatch(sequences: 5..<10)) }
        if case .cannotConnect = again {} else { Issue.record("expected cannotConnect while down, got \(String(describing: again))") }

        try PostgresTesting.control(["start"], environment: environment)
        #expect(try await store.write(makeBatch(sequences: 5..<10)) == 5)
        #expect(try await store.count() == 10)
        await store.close()
    }
}
