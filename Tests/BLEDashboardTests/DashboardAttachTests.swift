import BLEDashboard
import BLEScenarios
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `ble dashboard --attach`: a dashboard over a world another process runs and watches
/// (``WatchedWorld``, as `ble sim serve --watch-port` does), read over its WebSocket and passed
/// on to the dashboard's own pages — what a page connected to the dashboard receives.
@Suite("Dashboard attached to a served world", .serialized)
struct DashboardAttachTests {
    private struct Kind: Decodable { var type: String }

    /// A dashboard attached to `url` on a free port, with a page's WebSocket to it.
    private func attached(to url: String, seconds: Double) async throws -> (RunningDashboard, AsyncStream<String>) {
        let dashboard = try await RunningDashboard.start(attach: url)
        return (dashboard, webSocketTexts("ws://127.0.0.1:\(dashboard.port)/ws", seconds: seconds))
    }

    @Test("A page of the attached dashboard gets the world's hello and map, the bus moving east, and the bus entering stop 1")
    func showsTheWorld() async throws {
        // The world waits at time 0 until the page has the attached world's hello, so that
        // however long a loaded machine takes to connect, the page sees the bus from the start.
        let world = try await WatchedWorld.start(BundledScenarios.scenario(named: "bus-fleet"), speed: 10, paused: true)
        let (dashboard, page) = try await attached(to: "ws://127.0.0.1:\(world.port)", seconds: 120)
        var hello: DashboardMessage.Hello?
        var busX: [Double] = []
        var entered: DashboardMessage.Event?
        for await text in page {
            let data = Data(text.utf8)
            switch try JSONDecoder().decode(Kind.self, from: data).type {
            case "hello":
                let message = try JSONDecoder().decode(DashboardMessage.Hello.self, from: data)
                if message.scenario != nil, hello == nil {
                    hello = message
                    world.resume()
                }
            default:
                let update = try JSONDecoder().decode(DashboardMessage.Update.self, from: data)
                if let x = update.positions["bus"]?.first { busX.append(x) }
                entered = entered ?? update.events.first { $0.text == "bus entered stop 1" }
            }
            if hello != nil, entered != nil, busX.count >= 5 { break }
        }
        let (map, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(dashboard.port)/map.svg")!)
        await dashboard.stop()
        await world.stop()
        #expect(hello?.scenario == "bus fleet")
        #expect(hello?.map != nil && hello?.devices.contains { $0.name == "bus" && $0.kind == "vehicle" } == true)
        #expect(hello?.office == false, "no store was given, so no office view")
        #expect(hello?.mapSVG == nil, "a page loads /map.svg; only an attached dashboard gets the map in its hello")
        #expect(String(decoding: map, as: UTF8.self).contains(">stop 3 gateway</text>"))
        #expect(busX.count >= 5 && zip(busX, busX.dropFirst()).allSatisfy { $0 <= $1 }, "\(busX)")
        #expect(entered.map { (22 ... 23).contains($0.time) } == true, "\(String(describing: entered))")
    }

    @Test("When the world goes away the page's log says so; a world started again on its port is a new session, and the page starts afresh")
    func worldRestarts() async throws {
        let scenario = try BundledScenarios.scenario(named: "bus-fleet")
        let first = try await WatchedWorld.start(scenario, speed: 4)
        let port = first.port
        let (dashboard, page) = try await attached(to: "ws://127.0.0.1:\(port)", seconds: 90)
        var sessions: [String] = []
        var lost: String?
        var back: String?
        var second: WatchedWorld?
        for await text in page {
            let data = Data(text.utf8)
            if try JSONDecoder().decode(Kind.self, from: data).type == "hello" {
                let hello = try JSONDecoder().decode(DashboardMessage.Hello.self, from: data)
                if hello.scenario != nil, sessions.last != hello.session { sessions.append(hello.session) }
                if sessions.count == 1, lost == nil { await first.stop() }
            } else {
                let events = try JSONDecoder().decode(DashboardMessage.Update.self, from: data).events.filter { $0.kind == "world" }
                if lost == nil, let event = events.first(where: { $0.text.contains("cannot be reached") }) {
                    lost = event.text
                    second = try await WatchedWorld.restart(scenario, port: port, speed: 4)
                }
                back = back ?? events.first { $0.text.contains("reachable again") }?.text
            }
            if sessions.count == 2, back != nil { break }
        }
        await dashboard.stop()
        await second?.stop()
        #expect(lost?.contains("ws://127.0.0.1:\(port)") == true, "\(String(describing: lost))")
        #expect(sessions.count == 2, "sessions seen: \(sessions)")
        #expect(back != nil)
    }

    @Test("--attach takes ws:// or http:// with a port, and not with a scenario or --device", arguments: [
        "127.0.0.1:8091", "ws://127.0.0.1", "ftp://127.0.0.1:8091", "wss://example.com:443", "ws://127.0.0.1:8091/ws?x=1",
    ])
    func badAttach(value: String) async throws {
        await #expect(throws: DashboardError.invalidAttach(value)) {
            _ = try await DashboardServer.make(scenario: nil, attach: value, storeURL: nil, configuration: .init(port: 0))
        }
    }

    @Test("--attach with a scenario or --device is refused")
    func attachConflicts() async throws {
        let scenario = try BundledScenarios.scenario(named: "bus-fleet")
        await #expect(throws: DashboardError.attachConflict("a scenario")) {
            _ = try await DashboardServer.make(scenario: scenario, attach: "ws://127.0.0.1:1", storeURL: nil, configuration: .init(port: 0))
        }
        await #expect(throws: DashboardError.attachConflict("--device")) {
            _ = try await DashboardServer.make(scenario: nil, attach: "ws://127.0.0.1:1", devices: ["bus"], storeURL: nil, configuration: .init(port: 0))
        }
    }
}
