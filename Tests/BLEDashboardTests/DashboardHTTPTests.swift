import BLEDashboard
import BLEScenarios
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The dashboard's HTTP side on a socket: the page and its assets come from this server
/// alone, the map is the scenario's plan, and `/api/` is the back end over the store.
@Suite("Dashboard over HTTP")
struct DashboardHTTPTests {
    private func get(_ port: Int, _ path: String) async throws -> (status: Int, type: String, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/\(path)")!)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Content-Type") ?? "", String(decoding: data, as: UTF8.self))
    }

    @Test("The page, its script and style, the map and the back end answer; nothing points off the server")
    func pageAndAPI() async throws {
        let dashboard = try await RunningDashboard.start(scenario: try BundledScenarios.scenario(named: "bus-fleet"), port: 0, speed: 1)
        do {
            try await check(dashboard.port)
        } catch {
            await dashboard.stop()
            throw error
        }
        await dashboard.stop()
    }

    private func check(_ port: Int) async throws {
        let page = try await get(port, "")
        #expect(page.status == 200 && page.type.hasPrefix("text/html") && page.body.contains("<script src=\"dashboard.js\">"))
        for asset in ["dashboard.js", "dashboard.css", "index.html"] {
            let answer = try await get(port, asset)
            #expect(answer.status == 200)
            // Offline: no address of another host in any of the page's files (SVG's namespace names, not loads).
            let body = answer.body.replacingOccurrences(of: "\"http://www.w3.org/2000/svg\"", with: "")
            #expect(!body.contains("http://") && !body.contains("https://") && !body.contains("src=\"//"))
        }
        let map = try await get(port, "map.svg")
        #expect(map.status == 200 && map.type == "image/svg+xml" && map.body.contains(">stop 3 gateway</text>"))
        let identities = try await get(port, "api/identities")
        #expect(identities.status == 200 && identities.body.contains("\"identities\""))
        let unknown = try await get(port, "api/identities/nobody/location")
        #expect(unknown.status == 404 && unknown.body.contains("nobody"))
    }
}
