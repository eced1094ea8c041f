import BLEBackend
import Foundation
import Testing

/// Bad requests get a 4xx with a JSON error that names what was wrong (checked against the
/// document too): never a 500, never a crash.
@Suite("Back end bad requests")
struct BackendBadRequestTests {
    @Test("Malformed JSON, missing fields and wrong types are 400 with the field named")
    func badBodies() async throws {
        try await withBackend(.sqlite) { backend in
            let cases: [(body: String, reason: String)] = [
                ("{not json", "not valid JSON"),
                ("", "empty"),
                (#"{"rider": "ann", "vehicle": "bus"}"#, "missing field 'boarded'"),
                (#"{"rider": "ann", "vehicle": "bus", "boarded": {"zone": "s1", "time": "noon"}, "stops": [], "posted_at": 1}"#, "'boarded.time' must be an integer"),
                (#"{"rider": "", "vehicle": "bus", "boarded": {"zone": "s1", "time": 1}, "stops": [], "posted_at": 1}"#, "rider: must not be empty"),
                (#"{"rider": "ann", "vehicle": "bus", "boarded": {"zone": "s1", "time": 9}, "alighted": {"zone": "s2", "time": 1}, "stops": [], "posted_at": 1}"#,
                 "before boarded.time"),
                ("[1, 2]", "must be"),
            ]
            for item in cases {
                let answer = try await backend.call("POST", "/rides", template: "/rides", json: item.body)
                #expect(answer.status == 400, "\(item.body)")
                let reason = try answer.json()["reason"]?.string ?? ""
                #expect(reason.contains(item.reason), "\(item.body) → \(reason)")
            }
            let sightings: [String] = [
                #"{"sightings": []}"#,
                #"{"sightings": [{"phone": "p", "identity": "i", "rssi": -50, "time": 1, "position": {}}]}"#,
                #"{"sightings": [{"phone": "p", "identity": "i", "rssi": -500, "time": 1, "position": {"x": 1, "y": 1}}]}"#,
                #"{"sightings": [{"phone": "p", "identity": "i", "rssi": -50, "time": 1, "position": {"latitude": 91, "longitude": 0}}]}"#,
                #"{"sightings": [{"phone": "p", "rssi": -50, "time": 1, "position": {"x": 1, "y": 1}}]}"#,
                #"{"sightings": "all of them"}"#,
            ]
            for body in sightings {
                let answer = try await backend.call("POST", "/phone-sightings", template: "/phone-sightings", json: body)
                #expect(answer.status == 400, "\(body)")
            }
        }
    }

    @Test("Bad query parameters are 400 naming the parameter")
    func badParameters() async throws {
        try await withBackend(.sqlite) { backend in
            let cases: [(path: String, template: String, parameter: String)] = [
                ("/identities/\(bus)/history?from=yesterday", "/identities/{identity}/history", "from"),
                ("/identities/\(bus)/history?from=20&to=10", "/identities/{identity}/history", "from"),
                ("/identities/\(bus)/history?limit=0", "/identities/{identity}/history", "limit"),
                ("/identities/\(bus)/history?limit=99999999", "/identities/{identity}/history", "limit"),
                ("/identities/\(bus)/passages?gap=-1", "/identities/{identity}/passages", "gap"),
                ("/identities/\(bus)/location?window=nan", "/identities/{identity}/location", "window"),
                ("/locations?window=0", "/locations", "window"),
                ("/zones/stop-1/visits?gap=forever", "/zones/{zone}/visits", "gap"),
                ("/dwell?to=abc", "/dwell", "to"),
                ("/dwell?zone=", "/dwell", "zone"),
                ("/dwell?assign=loudest", "/dwell", "assign"),
                ("/dwell?assign=presence&slot=x", "/dwell", "slot"),
                ("/dwell?assign=nearest&slot=0", "/dwell", "slot"),
                ("/identities/ibeacon:car/track?limit=x", "/identities/{identity}/track", "limit"),
                ("/rides/not-a-reference", "/rides/{reference}", "reference"),
            ]
            for item in cases {
                let answer = try await backend.call("GET", item.path, template: item.template)
                #expect(answer.status == 400, "\(item.path)")
                #expect(try answer.json()["reason"]?.string?.hasPrefix(item.parameter + ":") == true, "\(item.path)")
            }
        }
    }

    @Test("Unknown references, identities and paths are 404 with a JSON error")
    func unknowns() async throws {
        try await withBackend(.sqlite) { backend in
            let ride = try await backend.call("GET", "/rides/R-0000-0000", template: "/rides/{reference}")
            #expect(ride.status == 404)
            let history = try await backend.call("GET", "/identities/nobody/history", template: "/identities/{identity}/history")
            #expect(history.status == 404)
            let passages = try await backend.call("GET", "/identities/nobody/passages", template: "/identities/{identity}/passages")
            #expect(passages.status == 404)
            let nowhere = try await backend.send("GET", "/no/such/path")
            #expect(nowhere.status == 404)
            #expect(try nowhere.json()["error"]?.string == "not_found")
        }
    }

    @Test("A body over 4 MiB is refused with 413 and a JSON error")
    func bodyTooLarge() async throws {
        try await withBackend(.sqlite) { backend in
            let padding = String(repeating: " ", count: 5 << 20)
            let answer = try await backend.call("POST", "/phone-sightings", template: "/phone-sightings", json: #"{"sightings": []}"# + padding)
            #expect(answer.status == 413)
            #expect(try answer.json()["error"]?.string == "body_too_large")
        }
    }

    @Test("A store that is closed answers 503 with a JSON error")
    func storeAway() async throws {
        try await withBackend(.sqlite) { backend in
            await backend.store.close()
            let health = try await backend.call("GET", "/health", template: "/health")
            #expect(health.status == 503)
            #expect(try health.json()["error"]?.string == "store_unavailable")
            let location = try await backend.call("GET", "/identities/\(bus)/location", template: "/identities/{identity}/location")
            #expect(location.status == 503)
        }
    }
}

/// The bound on sightings read, with a limit lowered so that a small store passes it.
@Suite("Back end read bound")
struct BackendReadBoundTests {
    @Test("Visits, passages and dwell over more sightings than the bound are refused as range_too_large")
    func rangeTooLarge() async throws {
        try await withBackend(.sqlite) { backend in
            let queries = BackendQueries(store: backend.store, maximumSightingsRead: 5)
            let gap = (seconds: 30.0, microseconds: Int64(30_000_000))
            let passages = await #expect(throws: BackendError.self) { try await queries.passages(identity: bus, from: .min, to: .max, gap: gap) }
            #expect(passages?.error == "range_too_large")
            let visits = await #expect(throws: BackendError.self) { try await queries.visits(zone: "stop-1", from: .min, to: .max, gap: gap) }
            #expect(visits?.status == .badRequest)
            await #expect(throws: BackendError.self) { try await queries.dwell(zone: nil, identity: nil, from: .min, to: .max, gap: gap) }
            // A narrow range passes.
            let narrow = try await queries.passages(identity: bus, from: marchFirst, to: marchFirst + 5 * second, gap: gap)
            #expect(narrow.passages.count == 1)
        }
    }
}
