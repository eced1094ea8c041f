import BLEFleet
@testable import BLEFleetStore
import FleetStoreTesting
import Testing

/// The back end's tables (schema version 2), the same on both engines.
@Suite("Fleet store back end tables")
struct BackendTablesTests {
    static let ride = RideLog(rider: "ann", vehicle: "bus-42", route: nil, boarded: .init(zone: "s1", time: 5), alighted: nil,
                              stops: [.init(zone: "s1", time: 5), .init(zone: "s2", time: 50)], postedAt: 60)

    @Test("A version 1 database migrates to the current version and keeps its sightings", arguments: TestEngine.available)
    func upgradeFromVersionOne(engine: TestEngine) async throws {
        try await withStore(engine, migrate: false) { (made: TestStore) async throws in
            let engineKind: FleetSchema.Engine = engine == .sqlite ? .sqlite : .postgres
            try await made.execute(FleetSchema.migrationsTable)
            for statement in FleetSchema.migrations[0].statements(engineKind) { try await made.execute(statement) }
            try await made.execute("INSERT INTO fleet_schema_migrations (version, applied_at, description) VALUES (1, 0, 'version 1')")
            try await made.store.write(makeBatch(sequences: 0..<3))
            try await made.store.migrate()
            #expect(try await made.store.count() == 3)
            #expect(try await made.store.storeRide(Self.ride, contentKey: "k", makeReference: { "R-\($0)" }) == StoredRide(reference: "R-0", created: true))
        }
    }

    @Test("A ride is stored under the first free reference and read back with its stops in order", arguments: TestEngine.available)
    func rides(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            let store = made.store
            #expect(try await store.storeRide(Self.ride, contentKey: "a", makeReference: { $0 == 0 ? "R-X" : "R-\($0)" }).reference == "R-X")
            // The counter starts at the number of rides stored; a reference taken moves it on.
            #expect(try await store.storeRide(Self.ride, contentKey: "b", makeReference: { $0 == 1 ? "R-X" : "R-\($0)" }).reference == "R-2")
            #expect(try await store.storeRide(Self.ride, contentKey: "a", makeReference: { "R-\($0)" }) == StoredRide(reference: "R-X", created: false))
            var expected = Self.ride
            expected.reference = "R-X"
            #expect(try await store.ride(reference: "R-X") == expected)
            #expect(try await store.ride(reference: "R-none") == nil)
        }
    }

    @Test("Phone sightings are stored once and read by identity and time", arguments: TestEngine.available)
    func phoneSightings(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            let sightings = [
                PhoneSighting(phone: "p1", identity: "car", rssi: -70, time: 20, position: .init(latitude: 52.5, longitude: 13.4, accuracy: 5)),
                PhoneSighting(phone: "p2", identity: "car", rssi: -80, time: 10, position: .init(x: 1.5, y: -2)),
                PhoneSighting(phone: "p2", identity: "bike", rssi: -80, time: 10, position: .init(x: 0, y: 0)),
            ]
            #expect(try await made.store.write(phoneSightings: sightings) == 3)
            #expect(try await made.store.write(phoneSightings: sightings) == 0)
            #expect(try await made.store.phoneSightings(identity: "car", from: 0, to: 100, limit: nil) == [sightings[1], sightings[0]])
            #expect(try await made.store.phoneSightings(identity: "car", from: 15, to: 100, limit: 5) == [sightings[0]])
        }
    }

    @Test("A zone is assigned to a gateway that has written, and not to one that has not", arguments: TestEngine.available)
    func zones(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            try await made.store.write(makeBatch(sequences: 0..<2))
            #expect(try await made.store.assignZone("hall", toGateway: "gw-hall"))
            #expect(try await made.store.assignZone("hall", toGateway: "gw-nobody") == false)
            #expect(try await made.store.gateways().map(\.zone) == ["hall"])
        }
    }
}
