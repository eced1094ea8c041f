import BLEFleet
@testable import BLEFleetStore
import FleetStoreTesting
import Foundation
import Testing

@Suite("Spool drainer")
struct SpoolDrainerTests {
    @Test("Draining writes every batch oldest first and empties the spool", arguments: TestEngine.available)
    func drainsEverything(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let spool = try SightingSpool(directory: directory)
            for index in Int64(0)..<4 { try spool.append(makeBatch(sequences: (index * 5)..<(index * 5 + 5))) }
            let result = try await SpoolDrainer(spool: spool, store: made.store).drain()
            #expect(result == SpoolDrainer.Result(batches: 4, inserted: 20))
            #expect(spool.count == 0)
            #expect(try await made.store.count() == 20)
        }
    }

    @Test("A crash between write and remove stores each sighting exactly once", arguments: TestEngine.available)
    func crashBetweenWriteAndRemove(engine: TestEngine) async throws {
        try await withStore(engine) { (made: TestStore) async throws in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let spool = try SightingSpool(directory: directory)
            try spool.append(makeBatch(sequences: 0..<10))
            try spool.append(makeBatch(sequences: 10..<20))
            // The gateway wrote the oldest batch, then died before removing it.
            let (_, batch) = try #require(spool.oldest())
            #expect(try await made.store.write(batch) == 10)
            let restarted = try SightingSpool(directory: directory)
            #expect(restarted.count == 2)
            let result = try await SpoolDrainer(spool: restarted, store: made.store).drain()
            #expect(result == SpoolDrainer.Result(batches: 2, inserted: 10))
            #expect(try await made.store.count() == 20)
            #expect(try await made.store.sightings(from: 0, to: .max).map(\.sequence).sorted() == Array(0..<20))
        }
    }

    @Test("A store that fails keeps the batch spooled")
    func failureKeepsTheBatch() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try SightingSpool(directory: directory)
        try spool.append(makeBatch(sequences: 0..<3))
        let unreachable = PostgresFleetStore(configuration: PostgresTarget(endpoint: .tcp(host: "127.0.0.1", port: 1), user: "u", password: nil,
                                                                          database: "d", sslMode: .disable))
        await #expect(throws: FleetStoreError.self) { try await SpoolDrainer(spool: spool, store: unreachable).drain() }
        await unreachable.close()
        #expect(spool.count == 1)
    }
}
