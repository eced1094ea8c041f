import FleetStoreTesting
import Foundation
import Testing

/// Both engines give the same answers: the same requests on SQLite and PostgreSQL answer with
/// the same status and the same bytes (keys are sorted, so equal answers are equal bytes).
@Suite("Back end engines agree")
struct EngineAgreementTests {
    static let requests: [(method: String, path: String, body: String?)] = [
        ("POST", "/rides", #"{"rider": "ann", "vehicle": "bus-42", "route": "42", "boarded": {"zone": "stop-1", "time": 5}, "alighted": {"zone": "stop-2", "time": 50}, "stops": [{"zone": "stop-1", "time": 5}], "posted_at": 9}"#),
        ("POST", "/rides", #"{"rider": "bob", "vehicle": "bus-42", "boarded": {"zone": "stop-1", "time": 5}, "stops": [], "posted_at": 9}"#),
        ("POST", "/phone-sightings", #"{"sightings": [{"phone": "p", "identity": "car", "rssi": -70, "time": 1, "position": {"latitude": 1.25, "longitude": -2.5, "accuracy": 3}}, {"phone": "q", "identity": "car", "rssi": -60, "time": 2, "position": {"x": 1, "y": 2}}]}"#),
        ("GET", "/identities/\(bus)/location", nil),
        ("GET", "/identities/\(bus)/history?limit=7&from=\(marchFirst + 2 * second)", nil),
        ("GET", "/identities/\(bus)/passages?gap=15", nil),
        ("GET", "/identities/\(rider)/passages", nil),
        ("GET", "/identities/car/track", nil),
        ("GET", "/zones", nil),
        ("GET", "/zones/stop-1/visits", nil),
        ("GET", "/zones/stop-2/visits?from=\(marchFirst + 110 * second)", nil),
        ("GET", "/dwell", nil),
        ("GET", "/dwell?identity=\(rider)", nil),
        ("GET", "/identities/nobody/location", nil),
    ]

    @Test("SQLite and PostgreSQL answer the same requests with the same bytes", .enabled(if: PostgresTesting.adminURL != nil, "SWIFTBLE_TEST_POSTGRES is not set: eval \"$(scripts/test-postgres.sh start)\" starts a server"))
    func sameAnswers() async throws {
        var answers: [TestEngine: [String]] = [:]
        for engine in [TestEngine.sqlite, .postgres] {
            try await withBackend(engine) { backend in
                var lines: [String] = []
                for request in Self.requests {
                    let answer = try await backend.send(request.method, request.path, body: request.body.map { Data($0.utf8) })
                    lines.append("\(request.method) \(request.path) \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
                }
                answers[engine] = lines
            }
        }
        let sqlite = answers[.sqlite] ?? [], postgres = answers[.postgres] ?? []
        #expect(sqlite.count == Self.requests.count)
        for (left, right) in zip(sqlite, postgres) { #expect(left == right) }
    }
}
