import BLEBackend
import BLEFleet
import FleetStoreTesting
import Foundation
import Testing

/// Every endpoint over a real server and store, each answer checked against the OpenAPI
/// document (``RunningBackend/call(_:_:template:json:sourceLocation:)``), on SQLite and, when
/// `SWIFTBLE_TEST_POSTGRES` is set, on PostgreSQL with the same expectations.
@Suite("Back end endpoints")
struct BackendEndpointTests {
    static let busPath = bus.replacingOccurrences(of: ":", with: "%3A")

    @Test("Health answers ok with the schema version, and the document is served as YAML", arguments: TestEngine.available)
    func health(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            let answer = try await backend.call("GET", "/health", template: "/health")
            #expect(answer.status == 200)
            #expect(try answer.json()["schema_version"]?.integer == 2)
            let document = try await backend.call("GET", "/openapi.yaml", template: "/openapi.yaml")
            #expect(document.status == 200)
            #expect(document.contentType?.hasPrefix("application/yaml") == true)
            #expect(String(decoding: document.body, as: UTF8.self).hasPrefix("openapi: 3.1.0"))
        }
    }

    @Test("The location is the strongest recent sighting's zone, with the latest time seen", arguments: TestEngine.available)
    func location(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            for path in ["/identities/\(bus)/location", "/identities/\(Self.busPath)/location"] {
                let answer = try await backend.call("GET", path, template: "/identities/{identity}/location")
                #expect(answer.status == 200)
                let body = try answer.json()
                #expect(body["zone"]?.string == "stop-1")
                #expect(body["gateway"]?.string == "gw-stop-1")
                #expect(body["rssi"]?.integer == -55)
                #expect(body["last_seen"]?.integer == marchFirst + 310 * second)
            }
            // A rider last heard on the bus, whose gateway has no zone: the zone is the gateway's name.
            let onBus = try await backend.call("GET", "/identities/\(rider)/location", template: "/identities/{identity}/location")
            #expect(try onBus.json()["zone"]?.string == "gw-bus-42")
            let identities = try await backend.call("GET", "/identities", template: "/identities")
            #expect(try identities.json()["identities"]?.array?.compactMap(\.string) == [bus, rider])
            // All at once: each identity's answer, as asked one by one, sorted by identity.
            let all = try await backend.call("GET", "/locations", template: "/locations")
            #expect(all.status == 200)
            var each: [JSONValue] = []
            for identity in [bus, rider].sorted() {
                each.append(try await backend.call("GET", "/identities/\(identity)/location", template: "/identities/{identity}/location").json())
            }
            #expect(try all.json()["locations"]?.array == each)
            let unknown = try await backend.call("GET", "/identities/ibeacon:nobody/location", template: "/identities/{identity}/location")
            #expect(unknown.status == 404)
            #expect(try unknown.json()["error"]?.string == "not_found")
        }
    }

    @Test("History lists the sightings in the range with their zones, up to the limit", arguments: TestEngine.available)
    func history(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            let all = try await backend.call("GET", "/identities/\(bus)/history", template: "/identities/{identity}/history")
            #expect(all.status == 200)
            #expect(try all.json()["sightings"]?.array?.count == 11 + 11 + 6 + 1)
            let from = marchFirst + 100 * second, to = marchFirst + 200 * second
            let range = try await backend.call("GET", "/identities/\(bus)/history?from=\(from)&to=\(to)&limit=3", template: "/identities/{identity}/history")
            let rows = try #require(try range.json()["sightings"]?.array)
            #expect(rows.count == 3)
            #expect(rows.allSatisfy { $0["zone"]?.string == "stop-2" })
            #expect(rows.first?["time"]?.integer == from)
        }
    }

    @Test("Passages give the first and last time the bus was heard at each stop, per visit", arguments: TestEngine.available)
    func passages(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            let answer = try await backend.call("GET", "/identities/\(bus)/passages", template: "/identities/{identity}/passages")
            #expect(answer.status == 200)
            let passages = try #require(try answer.json()["passages"]?.array)
            func seconds(_ value: JSONValue?) -> Int64 { ((value?.integer ?? 0) - marchFirst) / second }
            let summary = passages.map { "\($0["zone"]?.string ?? "?") \(seconds($0["arrival"]))-\(seconds($0["departure"]))" }
            #expect(summary == ["stop-1 0-20", "stop-2 100-120", "stop-1 300-310", "stop-2 304-304"])
            // A gap longer than the bus's absence from stop 1 joins its two visits there.
            let long = try await backend.call("GET", "/identities/\(bus)/passages?gap=600", template: "/identities/{identity}/passages")
            #expect(try long.json()["passages"]?.array?.count == 2)
        }
    }

    @Test("Visits to a zone list each identity's arrival and departure", arguments: TestEngine.available)
    func visits(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            let answer = try await backend.call("GET", "/zones/stop-1/visits", template: "/zones/{zone}/visits")
            #expect(answer.status == 200)
            let visits = try #require(try answer.json()["visits"]?.array)
            #expect(visits.map { $0["identity"]?.string } == [bus, rider, bus])
            #expect(visits[1]["arrival"]?.integer == marchFirst + 4 * second)
            #expect(visits[1]["departure"]?.integer == marchFirst + 16 * second)
            let zones = try await backend.call("GET", "/zones", template: "/zones")
            #expect(try zones.json()["zones"]?.array?.compactMap { $0["zone"]?.string } == ["gw-bus-42", "stop-1", "stop-2"])
            let unknown = try await backend.call("GET", "/zones/nowhere/visits", template: "/zones/{zone}/visits")
            #expect(unknown.status == 404)
        }
    }

    @Test("An operator assigns and clears a gateway's zone, and the answers follow it", arguments: TestEngine.available)
    func assignZone(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            let gateways = try await backend.call("GET", "/gateways", template: "/gateways")
            #expect(try gateways.json()["gateways"]?.array?.map { $0["zone"]?.string } == [nil, "stop-1", "stop-2"])
            let assigned = try await backend.call("PUT", "/gateways/gw-bus-42/zone", template: "/gateways/{gateway}/zone", json: #"{"zone": "bus-42"}"#)
            #expect(assigned.status == 200)
            #expect(try assigned.json()["zone"]?.string == "bus-42")
            let location = try await backend.call("GET", "/identities/\(rider)/location", template: "/identities/{identity}/location")
            #expect(try location.json()["zone"]?.string == "bus-42")
            let cleared = try await backend.call("PUT", "/gateways/gw-bus-42/zone", template: "/gateways/{gateway}/zone", json: #"{"zone": null}"#)
            #expect(try cleared.json()["zone"] == nil)
            let unknown = try await backend.call("PUT", "/gateways/gw-nobody/zone", template: "/gateways/{gateway}/zone", json: #"{"zone": "x"}"#)
            #expect(unknown.status == 404)
            let bad = try await backend.call("PUT", "/gateways/gw-bus-42/zone", template: "/gateways/{gateway}/zone", json: #"{"zone": 7}"#)
            #expect(bad.status == 400)
            let empty = try await backend.call("PUT", "/gateways/gw-bus-42/zone", template: "/gateways/{gateway}/zone", json: #"{"zone": ""}"#)
            #expect(empty.status == 400)
        }
    }

    @Test("Dwell adds up the visits per zone and identity", arguments: TestEngine.available)
    func dwell(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            let answer = try await backend.call("GET", "/dwell?zone=stop-1&identity=\(Self.busPath)", template: "/dwell")
            #expect(answer.status == 200)
            let rows = try #require(try answer.json()["dwell"]?.array)
            #expect(rows.count == 1)
            #expect(rows.first?["seconds"]?.number == 30)
            #expect(rows.first?["visits"]?.integer == 2)
            let all = try await backend.call("GET", "/dwell", template: "/dwell")
            #expect(try all.json()["dwell"]?.array?.count == 4)
            let nearest = try await backend.call("GET", "/dwell?assign=nearest&slot=10&identity=\(Self.busPath)", template: "/dwell")
            #expect(nearest.status == 200)
            #expect(try #require(try nearest.json()["dwell"]?.array).allSatisfy { ($0["seconds"]?.number ?? 0) > 0 })
            let presence = try await backend.call("GET", "/dwell?assign=presence&identity=\(Self.busPath)", template: "/dwell")
            #expect(presence.status == 200)
        }
    }

    @Test("A posted ride gets a reference, reads back whole, and posting it again gives the same reference", arguments: TestEngine.available)
    func rides(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            let ride = """
                {"rider": "phone-ann", "vehicle": "\(bus)", "route": "42",
                 "boarded": {"zone": "stop-1", "time": \(marchFirst + 10 * second)},
                 "alighted": {"zone": "stop-2", "time": \(marchFirst + 110 * second)},
                 "stops": [{"zone": "stop-1", "time": \(marchFirst + 10 * second)}, {"zone": "stop-2", "time": \(marchFirst + 110 * second)}],
                 "posted_at": \(marchFirst + 111 * second)}
                """
            let created = try await backend.call("POST", "/rides", template: "/rides", json: ride)
            #expect(created.status == 201)
            let reference = try #require(try created.json()["reference"]?.string)
            #expect(RideReference.isWellFormed(reference))
            let again = try await backend.call("POST", "/rides", template: "/rides", json: ride.replacingOccurrences(of: "\(marchFirst + 111 * second)}", with: "\(marchFirst + 500 * second)}"))
            #expect(again.status == 200)
            #expect(try again.json()["reference"]?.string == reference)
            let read = try await backend.call("GET", "/rides/\(reference)", template: "/rides/{reference}")
            #expect(read.status == 200)
            let body = try read.json()
            #expect(body["reference"]?.string == reference)
            #expect(body["route"]?.string == "42")
            #expect(body["alighted"]?["zone"]?.string == "stop-2")
            #expect(body["stops"]?.array?.count == 2)
            #expect(body["posted_at"]?.integer == marchFirst + 111 * second)
            let other = try await backend.call("POST", "/rides", template: "/rides", json: ride.replacingOccurrences(of: "phone-ann", with: "phone-bob"))
            #expect(other.status == 201)
            #expect(try other.json()["reference"]?.string != reference)
        }
    }

    @Test("The same rides posted in the same order get the same references on a new store")
    func referencesAreReproducible() async throws {
        var runs: [[String]] = []
        for _ in 0 ..< 2 {
            try await withBackend(.sqlite) { backend in
                var references: [String] = []
                for name in ["ann", "bob", "cy"] {
                    let answer = try await backend.send("POST", "/rides", body: Data("""
                        {"rider": "\(name)", "vehicle": "bus-42", "boarded": {"zone": "stop-1", "time": 5}, "stops": [], "posted_at": 9}
                        """.utf8))
                    references.append(try answer.json()["reference"]?.string ?? "")
                }
                runs.append(references)
            }
        }
        #expect(runs.count == 2 && runs[0] == runs[1])
        #expect(Set(runs[0]).count == 3)
    }

    @Test("Phone sightings are stored once and make the identity's track", arguments: TestEngine.available)
    func track(engine: TestEngine) async throws {
        try await withBackend(engine) { backend in
            let batch = """
                {"sightings": [
                  {"phone": "phone-1", "identity": "ibeacon:car", "rssi": -80, "time": 2000, "position": {"latitude": 52.52, "longitude": 13.405, "accuracy": 12.5}},
                  {"phone": "phone-2", "identity": "ibeacon:car", "rssi": -75, "time": 1000, "position": {"x": 10.5, "y": -3}},
                  {"phone": "phone-2", "identity": "ibeacon:other", "rssi": -75, "time": 1500, "position": {"x": 1, "y": 2}}
                ]}
                """
            let accepted = try await backend.call("POST", "/phone-sightings", template: "/phone-sightings", json: batch)
            #expect(accepted.status == 202)
            #expect(try accepted.json()["stored"]?.integer == 3)
            let again = try await backend.call("POST", "/phone-sightings", template: "/phone-sightings", json: batch)
            #expect(try again.json()["stored"]?.integer == 0)
            let track = try await backend.call("GET", "/identities/ibeacon:car/track", template: "/identities/{identity}/track")
            #expect(track.status == 200)
            let points = try #require(try track.json()["points"]?.array)
            #expect(points.map { $0["phone"]?.string } == ["phone-2", "phone-1"])
            #expect(points[0]["x"]?.number == 10.5)
            #expect(points[1]["latitude"]?.number == 52.52)
            #expect(points[1]["accuracy"]?.number == 12.5)
            let window = try await backend.call("GET", "/identities/ibeacon:car/track?from=1500", template: "/identities/{identity}/track")
            #expect(try window.json()["points"]?.array?.count == 1)
            let none = try await backend.call("GET", "/identities/ibeacon:nobody/track", template: "/identities/{identity}/track")
            #expect(none.status == 404)
        }
    }
}
