import BLE
import BLEBackend
import BLEFleetStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimulatedTesting
import Testing

/// The back end of `ble backend` answering a simulated phone in-process: the same router,
/// over a SQLite store, with no socket (docs/network.md).
@Suite("The back end inside a simulation", .simulatedOnMainActor, .timeLimit(.minutes(5)))
@MainActor
struct BackendInProcessTests {
    @Test("An app posts a ride to the in-process back end over SQLite and gets a reference number back, which the back end then knows")
    func postRide() async throws {
        let directory = NSTemporaryDirectory() + "ble-net-\(UInt64.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = SQLiteFleetStore(path: directory + "/fleet.sqlite")
        try await store.migrate()
        let host = uniqueHost("backend")
        let phone = try phoneWithApp(server: BackendInProcess(store: store), host: host)
        defer { phone.close() }

        var request = URLRequest(url: try #require(URL(string: "http://\(host)/rides")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("""
        {"rider": "phone-ann", "vehicle": "ibeacon:bus:42:1", "route": "42",
         "boarded": {"zone": "stop-1", "time": 1740787210000000},
         "alighted": {"zone": "stop-2", "time": 1740787310000000},
         "stops": [{"zone": "stop-1", "time": 1740787210000000}, {"zone": "stop-2", "time": 1740787310000000}],
         "posted_at": 1740787311000000}
        """.utf8)
        let start = testClock.microseconds
        let (data, response) = try await URLSession.shared.data(for: request)
        let took = testClock.microseconds - start
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
        let answer = try JSONDecoder().decode([String: String].self, from: data)
        let reference = try #require(answer["reference"])
        #expect(reference.wholeMatch(of: /R-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil, "\(reference)")
        // The store's work takes no virtual time: only the link's.
        let link = phone.cellularLinkPolicy
        #expect((2 * link.baseLatency ... 2 * (link.baseLatency + link.jitter)).contains(took))

        let (stored, again) = try await URLSession.shared.data(from: try #require(URL(string: "http://\(host)/rides/\(reference)")))
        #expect((again as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: stored, as: UTF8.self).contains(#""rider":"phone-ann""#))
        let (_, missing) = try await URLSession.shared.data(from: try #require(URL(string: "http://\(host)/rides/R-0000-0000")))
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        #expect(networkLines(phone).first?.hasPrefix("Rides: → POST \(host)/rides 201 (") == true)
        await store.close()
    }
}
