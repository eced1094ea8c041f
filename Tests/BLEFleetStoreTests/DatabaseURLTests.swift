@testable import BLEFleetStore
import Foundation
import Testing

@Suite("Database URL")
struct DatabaseURLTests {
    @Test("SQLite URLs: relative, absolute, triple slash and memory")
    func sqliteForms() throws {
        #expect(try DatabaseURL(parsing: "sqlite:ble-fleet.sqlite") == .sqlite(path: "ble-fleet.sqlite"))
        #expect(try DatabaseURL(parsing: "sqlite:/var/lib/ble/fleet.sqlite") == .sqlite(path: "/var/lib/ble/fleet.sqlite"))
        #expect(try DatabaseURL(parsing: "sqlite:///var/lib/ble/fleet.sqlite") == .sqlite(path: "/var/lib/ble/fleet.sqlite"))
        #expect(try DatabaseURL(parsing: "sqlite::memory:") == .sqliteInMemory)
        #expect(try DatabaseURL(parsing: DatabaseURL.defaultURL) == .sqlite(path: "ble-fleet.sqlite"))
    }

    @Test("A full PostgreSQL URL gives every part")
    func fullPostgresURL() throws {
        let url = try DatabaseURL(parsing: "postgresql://fleet:s%40cret@db.example:6543/ble?sslmode=require", environment: [:])
        #expect(url == .postgres(PostgresTarget(endpoint: .tcp(host: "db.example", port: 6543), user: "fleet", password: "s@cret",
                                                database: "ble", sslMode: .require)))
        #expect(url.description == "postgres://fleet@db.example:6543/ble?sslmode=require")
    }

    @Test("Parts the URL omits come from the PG variables, as psql reads them")
    func environmentFillsGaps() throws {
        let environment = ["PGHOST": "10.0.0.5", "PGPORT": "5433", "PGUSER": "gw", "PGPASSWORD": "pw", "PGDATABASE": "fleet", "PGSSLMODE": "disable"]
        #expect(try DatabaseURL(parsing: "postgres://", environment: environment) == .postgres(PostgresTarget(
            endpoint: .tcp(host: "10.0.0.5", port: 5433), user: "gw", password: "pw", database: "fleet", sslMode: .disable)))
        #expect(try DatabaseURL(parsing: "postgres://other@/x", environment: environment) == .postgres(PostgresTarget(
            endpoint: .tcp(host: "10.0.0.5", port: 5433), user: "other", password: "pw", database: "x", sslMode: .disable)))
    }

    @Test("A host that is a directory means the server's Unix socket")
    func unixSocket() throws {
        let url = try DatabaseURL(parsing: "postgres://gw@%2Fvar%2Frun%2Fpostgresql/fleet", environment: [:])
        guard case .postgres(let target) = url else { Issue.record("not postgres"); return }
        #expect(target.endpoint == .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"))
        let viaEnvironment = try DatabaseURL(parsing: "postgres:///fleet", environment: ["PGHOST": "/tmp/pg", "PGUSER": "gw"])
        guard case .postgres(let other) = viaEnvironment else { Issue.record("not postgres"); return }
        #expect(other.endpoint == .unixSocket(path: "/tmp/pg/.s.PGSQL.5432"))
    }

    @Test("IPv6 hosts in brackets")
    func ipv6() throws {
        guard case .postgres(let target) = try DatabaseURL(parsing: "postgres://u@[::1]:5555/d", environment: [:]) else { return }
        #expect(target.endpoint == .tcp(host: "::1", port: 5555))
        #expect(target.endpointDescription == "[::1]:5555")
    }

    @Test("Wrong URLs say what is accepted", arguments: [
        ("mysql://root@localhost/fleet", "the scheme 'mysql' is not supported"),
        ("postgres://host:notaport/db", "the port 'notaport' is not a number from 1 to 65535"),
        ("postgres://host:70000/db", "the port '70000' is not a number from 1 to 65535"),
        ("postgres://host/db?sslmode=sometimes", "sslmode 'sometimes' is not one of"),
        ("fleet.sqlite", "it has no scheme"),
        ("sqlite:", "the SQLite path is empty"),
    ])
    func wrongURLs(url: String, reason: String) throws {
        let error = #expect(throws: FleetStoreError.self) { try DatabaseURL(parsing: url, environment: [:]) }
        let text = error?.description ?? ""
        #expect(text.contains(reason), "\(text)")
        #expect(text.contains("sqlite:PATH"), "\(text)")
        #expect(text.contains("postgres://USER:PASSWORD@HOST:PORT/DATABASE"), "\(text)")
    }

    @Test("Opening a wrong URL fails before touching anything")
    func openWrongURL() async {
        await #expect(throws: FleetStoreError.self) { _ = try await FleetStores.open("mysql://x/y") }
    }

    @Test("An SQLite path in a missing directory says which directory")
    func sqliteMissingDirectory() async {
        let error = await #expect(throws: FleetStoreError.self) { _ = try await FleetStores.open("sqlite:/nonexistent-dir-for-ble/fleet.sqlite") }
        #expect(error == .cannotOpenFile(path: "/nonexistent-dir-for-ble/fleet.sqlite", reason: "the directory '/nonexistent-dir-for-ble' does not exist"))
    }

    @Test("FleetStores.open opens SQLite in memory")
    func openMemory() async throws {
        let store = try await FleetStores.open("sqlite::memory:")
        try await store.migrate()
        #expect(try await store.write(makeBatch(sequences: 0..<3)) == 3)
        #expect(try await store.count() == 3)
        await store.close()
    }
}
