import FleetStoreTesting
import Testing

/// One sweep over the whole document: every documented operation is called, every call is a
/// documented operation, and each answer keeps the contract.
@Suite("Back end contract sweep")
struct BackendContractSweepTests {
    @Test("Every operation in openapi.yaml is called and answers as documented", arguments: TestEngine.available)
    func everyOperation(engine: TestEngine) async throws {
        try await withBackend(engine, eidBeacons: try EIDTests.shop()) { backend in
            let ride = #"{"rider": "ann", "vehicle": "bus-42", "boarded": {"zone": "stop-1", "time": 5}, "stops": [], "posted_at": 9}"#
            let created = try await backend.call("POST", "/rides", template: "/rides", json: ride)
            let reference = try created.json()["reference"]?.string ?? "R-0000-0000"
            let calls: [(method: String, template: String, path: String, body: String?)] = [
                ("GET", "/health", "/health", nil),
                ("GET", "/openapi.yaml", "/openapi.yaml", nil),
                ("GET", "/identities/{identity}/location", "/identities/\(bus)/location", nil),
                ("GET", "/locations", "/locations", nil),
                ("GET", "/identities/{identity}/history", "/identities/\(bus)/history", nil),
                ("GET", "/identities/{identity}/passages", "/identities/\(bus)/passages", nil),
                ("POST", "/phone-sightings", "/phone-sightings",
                 #"{"sightings": [{"phone": "p", "identity": "car", "rssi": -70, "time": 1, "position": {"x": 1, "y": 2}}]}"#),
                ("GET", "/identities/{identity}/track", "/identities/car/track", nil),
                ("GET", "/identities", "/identities", nil),
                ("GET", "/zones", "/zones", nil),
                ("GET", "/gateways", "/gateways", nil),
                ("PUT", "/gateways/{gateway}/zone", "/gateways/gw-bus-42/zone", #"{"zone": "bus-42"}"#),
                ("GET", "/zones/{zone}/visits", "/zones/stop-2/visits", nil),
                ("GET", "/dwell", "/dwell", nil),
                ("POST", "/rides", "/rides", ride),
                ("GET", "/rides/{reference}", "/rides/\(reference)", nil),
                ("POST", "/eid/resolve", "/eid/resolve", EIDTests.observation(EIDTests.at2000, time: marchFirst + 2000 * second)),
            ]
            for call in calls {
                let answer = try await backend.call(call.method, call.path, template: call.template, json: call.body)
                #expect((200 ..< 300).contains(answer.status), "\(call.method) \(call.path) answered \(answer.status)")
            }
            var documented: Set<String> = []
            for (path, item) in backend.contract.document["paths"]?.object ?? [:] {
                for method in (item.object ?? [:]).keys { documented.insert(method.uppercased() + " " + path) }
            }
            #expect(Set(calls.map { $0.method + " " + $0.template }) == documented)
        }
    }
}
