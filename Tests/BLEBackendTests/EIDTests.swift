import BLEBackend
import FleetStoreTesting
import Foundation
import Testing

/// `POST /eid/resolve` over a real server: the identity key and identifiers of the published
/// Eddystone-EID vectors (RadiusNetworks/ephemeral_calc, K = 10), the beacon's counter 0 at
/// 2025-03-01T00:00:00Z.
@Suite("Eddystone-EID resolution by the back end")
struct EIDTests {
    /// The identifier at counters 1024–2047.
    static let at2000 = "4144413E45FEFA58"
    /// The identifier at counters 0–1023.
    static let at0 = "A9B76A71C5F89290"

    /// The shop's beacon as an operator configures it.
    static func shop() throws -> EIDBeaconRegistry {
        try EIDBeaconRegistry(beacons: [.init(identifier: "shop", identityKey: "0102030405060708090A111213141516", rotationExponent: 10,
                                              timeCounter: 0, registeredAt: marchFirst)])
    }

    /// The request body of a frame with `identifier`, heard at `time`.
    static func observation(_ identifier: String, time: Int64) -> String {
        #"{"frame": "30F6\#(identifier)", "time": \#(time)}"#
    }

    @Test("The identifier of the current period resolves to the beacon; one of four periods before is stale (410); an identifier of no beacon is unknown (404); a frame that is not EID is a 400",
          arguments: TestEngine.available)
    func resolve(engine: TestEngine) async throws {
        try await withBackend(engine, eidBeacons: try Self.shop()) { backend in
            let current = try await backend.call("POST", "/eid/resolve", template: "/eid/resolve",
                                                 json: Self.observation(Self.at2000, time: marchFirst + 2000 * second))
            #expect(current.status == 200)
            #expect(try current.json()["beacon"]?.string == "shop")
            #expect(try current.json()["ephemeral_identifier"]?.string == Self.at2000)
            // One period late still resolves: the beacon's clock may drift.
            let late = try await backend.call("POST", "/eid/resolve", template: "/eid/resolve",
                                              json: Self.observation(Self.at0, time: marchFirst + 1500 * second))
            #expect(late.status == 200)
            let replayed = try await backend.call("POST", "/eid/resolve", template: "/eid/resolve",
                                                  json: Self.observation(Self.at0, time: marchFirst + 5000 * second))
            #expect(replayed.status == 410)
            #expect(try replayed.json()["error"]?.string == "stale_eid")
            let unknown = try await backend.call("POST", "/eid/resolve", template: "/eid/resolve",
                                                 json: Self.observation("0000000000000001", time: marchFirst + 2000 * second))
            #expect(unknown.status == 404)
            #expect(try unknown.json()["error"]?.string == "unknown_eid")
            for frame in ["00F6A9B76A71C5F89290", "30F6A9B7", "zz", ""] {
                let bad = try await backend.call("POST", "/eid/resolve", template: "/eid/resolve", json: #"{"frame": "\#(frame)", "time": 1}"#)
                #expect(bad.status == 400, "frame \(frame)")
            }
            let noTime = try await backend.call("POST", "/eid/resolve", template: "/eid/resolve", json: #"{"frame": "30F6\#(Self.at2000)"}"#)
            #expect(noTime.status == 400)
        }
    }

    @Test("A registry refuses a key that is not 32 hex digits, an exponent above 15 and a beacon named twice")
    func badConfiguration() throws {
        func beacon(_ name: String = "b", key: String = "0102030405060708090A111213141516", k: UInt8 = 10) -> EIDBeaconRegistry.Beacon {
            .init(identifier: name, identityKey: key, rotationExponent: k, timeCounter: 0, registeredAt: 0)
        }
        #expect(throws: EIDBeaconRegistryError.self) { try EIDBeaconRegistry(beacons: [beacon(key: "0102")]) }
        #expect(throws: EIDBeaconRegistryError.self) { try EIDBeaconRegistry(beacons: [beacon(key: "zz02030405060708090A111213141516")]) }
        #expect(throws: EIDBeaconRegistryError.self) { try EIDBeaconRegistry(beacons: [beacon(k: 16)]) }
        #expect(throws: EIDBeaconRegistryError.self) { try EIDBeaconRegistry(beacons: [beacon(), beacon()]) }
    }

    @Test("A registry reads the operator's JSON file, and names the file when it is wrong")
    func configurationFile() throws {
        let path = NSTemporaryDirectory() + "eid-\(UInt32.random(in: 0 ... .max)).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"beacons": [{"identifier": "shop", "identity_key": "0102030405060708090A111213141516", "rotation_exponent": 10, "time_counter": 0, "registered_at": 0}]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let registry = try EIDBeaconRegistry(contentsOf: path)
        #expect(registry.resolve(0x4144_413E_45FE_FA58, at: 2000 * second) == .current(beacon: "shop", periodStart: 1024, rotationSeconds: 1024))
        try #"{"beacons": [{"identifier": "shop"}]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try EIDBeaconRegistry(contentsOf: path) } throws: { "\($0)".contains(path) && "\($0)".contains("identity_key") }
    }
}
