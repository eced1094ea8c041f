import BLEBackend
import Foundation
import Testing

/// The contract checker itself: it must be able to fail.
@Suite("OpenAPI contract check")
struct OpenAPIContractTests {
    static func contract() throws -> OpenAPIContract { try OpenAPIContract(yaml: try OpenAPIDocument.text()) }

    @Test("A body of the documented shape passes")
    func goodBodyPasses() throws {
        let body = Data(#"{"identity": "a", "zone": "z", "gateway": "g", "time": 1, "rssi": -50, "last_seen": 2, "window_seconds": 10}"#.utf8)
        #expect(try Self.contract().violations(method: "GET", path: "/identities/{identity}/location", status: 200,
                                               contentType: "application/json", body: body).isEmpty)
    }

    @Test("A deliberately wrong body is rejected: a missing property, a wrong type, a wrong item, a value outside the enum")
    func wrongBodiesFail() throws {
        let contract = try Self.contract()
        func problems(_ path: String, _ status: Int, _ json: String) -> [String] {
            contract.violations(method: "GET", path: path, status: status, contentType: "application/json", body: Data(json.utf8))
        }
        let missing = problems("/identities/{identity}/location", 200, #"{"identity": "a", "zone": "z", "gateway": "g", "time": 1, "rssi": -50, "last_seen": 2}"#)
        #expect(missing == ["body: the required property 'window_seconds' is missing"])
        let wrongType = problems("/identities/{identity}/location", 200, #"{"identity": "a", "zone": "z", "gateway": "g", "time": "1", "rssi": -50, "last_seen": 2, "window_seconds": 1}"#)
        #expect(wrongType == [#"body.time: "1" is not of type integer"#])
        let boolean = problems("/identities/{identity}/location", 200, #"{"identity": "a", "zone": "z", "gateway": "g", "time": true, "rssi": -50, "last_seen": 2, "window_seconds": 1}"#)
        #expect(boolean.count == 1)
        let badItem = problems("/zones", 200, #"{"zones": [{"zone": "z", "gateways": ["g", 3]}]}"#)
        #expect(badItem == ["body.zones[0].gateways[1]: 3 is not of type string"])
        let badEnum = problems("/health", 200, #"{"status": "fine", "schema_version": 2}"#)
        #expect(badEnum.count == 1)
        #expect(!problems("/health", 418, #"{"status": "ok", "schema_version": 2}"#).isEmpty)
        #expect(!problems("/no/such/path", 200, "{}").isEmpty)
        let wrongMedia = contract.violations(method: "GET", path: "/health", status: 200, contentType: "text/plain", body: Data("ok".utf8))
        #expect(!wrongMedia.isEmpty)
    }
}
