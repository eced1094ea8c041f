import BLEBackend
import BLEFleet
@testable import BLEFleetStore
import FleetStoreTesting
import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// 2025-03-01T00:00:00Z in microseconds: the day the test sightings start.
let marchFirst: Int64 = 1_740_787_200_000_000
let second: Int64 = 1_000_000
let bus = "ibeacon:8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51:42:1"
let rider = "ibeacon:8A6E3C2D-5B1F-4E07-9C44-2F1D0B7A3E51:7:7"

/// An HTTP answer.
struct HTTPAnswer: Sendable {
    var status: Int
    var contentType: String?
    var body: Data

    /// The body as JSON.
    func json() throws -> JSONValue { try JSONValue.parse(body) }
}

/// A back end served on a free port over a fresh, migrated store of one engine.
struct RunningBackend: Sendable {
    let port: Int
    let store: any FleetStore
    let contract: OpenAPIContract

    /// Sends a request and checks the answer against the OpenAPI document, recording any
    /// violation as a test issue; `template` is the documented path of `path`.
    @discardableResult
    func call(_ method: String, _ path: String, template: String, json: String? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) async throws -> HTTPAnswer {
        let answer = try await send(method, path, body: json.map { Data($0.utf8) })
        let violations = contract.violations(method: method, path: template, status: answer.status, contentType: answer.contentType, body: answer.body)
        #expect(violations.isEmpty, "\(method) \(path) broke the contract: \(violations)", sourceLocation: sourceLocation)
        if let json, (200 ..< 300).contains(answer.status) {
            // What the server took must be what the document says it takes.
            let problems = contract.requestViolations(method: method, path: template, body: Data(json.utf8))
            #expect(problems.isEmpty, "\(method) \(path) took a body the document refuses: \(problems)", sourceLocation: sourceLocation)
        }
        if answer.status >= 400 {
            // Every refusal is a JSON error with both fields, never an empty body.
            let body = try? answer.json()
            #expect(body?["error"]?.string?.isEmpty == false && body?["reason"]?.string?.isEmpty == false,
                    "\(method) \(path) answered \(answer.status) without a JSON error", sourceLocation: sourceLocation)
        }
        return answer
    }

    /// Sends a request without checking it.
    func send(_ method: String, _ path: String, body: Data? = nil) async throws -> HTTPAnswer {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw ContractError("bad test path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await realHTTP.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ContractError("not an HTTP response") }
        return HTTPAnswer(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"), body: data)
    }
}

/// Serves a back end over a fresh store of `engine`, seeded by `seed`, resolving the identifiers
/// of `eidBeacons`, runs `body` against it,
/// then stops the server and removes the database, also when `body` throws.
func withBackend(_ engine: TestEngine, seed: (any FleetStore) async throws -> Void = seedBusRoute, eidBeacons: EIDBeaconRegistry = .none,
                 _ body: (RunningBackend) async throws -> Void) async throws {
    let made = try await TestStore.make(engine, migrate: false)
    let store = made.store
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    // Cancelling the server at the end makes Hummingbird log two harmless errors; keep them out of the test log.
    var logger = Logger(label: "ble.backend.test")
    logger.logLevel = .critical
    let server = Task { [logger] in try await BackendServer(store: store, logger: logger, eidBeacons: eidBeacons).run(onReady: { continuation.yield($0) }) }
    do {
        try await store.migrate()
        try await seed(store)
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw ContractError("the server never became ready") }
        let yaml = try await RunningBackend(port: port, store: store, contract: OpenAPIContract(yaml: "openapi: 3.1.0\n")).send("GET", "/openapi.yaml")
        let backend = RunningBackend(port: port, store: store, contract: try OpenAPIContract(yaml: String(decoding: yaml.body, as: UTF8.self)))
        try await body(backend)
    } catch {
        server.cancel()
        _ = await server.result
        await store.close()
        await made.cleanUp()
        throw error
    }
    server.cancel()
    _ = await server.result
    await store.close()
    await made.cleanUp()
}

/// Sightings of one gateway run: `identity` heard every 2 s from `start` to `end` seconds
/// (inclusive) after 2025-03-01, at `rssi`.
func sightings(gateway: String, run: Int64 = 1, firstSequence: Int64, identity: String, from start: Int64, to end: Int64, rssi: Int) -> [Sighting] {
    stride(from: start, through: end, by: 2).enumerated().map { index, offset in
        Sighting(gateway: gateway, run: run, sequence: firstSequence + Int64(index), identity: identity, address: "C0:11:22:33:44:55",
                 addressIsRandom: false, time: marchFirst + offset * second, rssi: rssi, txPower: index % 2 == 0 ? -59 : nil, frame: [0x02, 0x01, 0x06])
    }
}

/// A bus on its route: stop 1 (0–20 s), stop 2 (100–120 s), stop 1 again (300–310 s), heard
/// faintly by stop 2 at 304 s too; a rider at stop 1 (4–16 s). The gateway on the bus has no
/// zone assigned, so its zone is its name.
@Sendable func seedBusRoute(_ store: any FleetStore) async throws {
    var stopOne = sightings(gateway: "gw-stop-1", firstSequence: 0, identity: bus, from: 0, to: 20, rssi: -60)
    stopOne += sightings(gateway: "gw-stop-1", firstSequence: 100, identity: rider, from: 4, to: 16, rssi: -70)
    stopOne += sightings(gateway: "gw-stop-1", firstSequence: 200, identity: bus, from: 300, to: 310, rssi: -55)
    var stopTwo = sightings(gateway: "gw-stop-2", firstSequence: 0, identity: bus, from: 100, to: 120, rssi: -65)
    stopTwo += sightings(gateway: "gw-stop-2", firstSequence: 100, identity: bus, from: 304, to: 304, rssi: -90)
    let onBus = sightings(gateway: "gw-bus-42", firstSequence: 0, identity: rider, from: 30, to: 40, rssi: -50)
    try await store.write(SightingBatch(sightings: stopOne))
    try await store.write(SightingBatch(sightings: stopTwo))
    try await store.write(SightingBatch(sightings: onBus))
    #expect(try await store.assignZone("stop-1", toGateway: "gw-stop-1"))
    #expect(try await store.assignZone("stop-2", toGateway: "gw-stop-2"))
}

/// The session the tests' real HTTP requests go through: one of their own, not
/// `URLSession.shared`, which swift-corelibs-foundation gives the protocol classes registered
/// at its first use; used first here, it would never learn the simulated phones' protocol
/// that other tests in the process register later.
let realHTTP = URLSession(configuration: .ephemeral)
