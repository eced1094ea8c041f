import BLEDashboard
import BLEScenarios
import BLEWorld
import Foundation
import Testing

extension BrowserSuites {
    /// The dashboard's page in headless Chromium over a running bus-fleet world and its gateways
    /// (Browser/check_dashboard.py says what it checks), then the server restarted on the same port
    /// while the page stays open. Skipped, saying why, where Chromium, its driver or Selenium is missing.
    @Suite("Dashboard in a browser", .serialized)
    struct DashboardBrowserTests {
        @Test("The page shows the stops, the moving bus, RSSI, the bus entering a stop and where bus 42 is, and reconnects",
              .enabled(if: BrowserHarness.missing == nil, BrowserHarness.skipReason))
        func pageOverBusFleet() async throws {
            let scenario = try BundledScenarios.scenario(named: "bus-fleet")
            // Four simulated seconds a second: the bus reaches stop 1 (22 s) in under 6 s and keeps moving
            // for 42 s (it parks at 168 s), room for a browser that starts slowly on a loaded machine.
            let first = try await RunningDashboard.start(scenario: scenario, port: 0, speed: 4)
            let port = first.port
            var current = first
            let screenshots = ProcessInfo.processInfo.environment["SWIFTBLE_DASHBOARD_SCREENSHOTS"]
            let python = try #require(BrowserHarness.python)
            let browser = try LineProcess(python, [BrowserHarness.script, "http://127.0.0.1:\(port)/"] + (screenshots.map { [$0] } ?? []))
            var transcript: [String] = []
            for await line in browser.lines {
                transcript.append(line)
                if line == "RESTART" {
                    await current.stop()
                    current = try await RunningDashboard.start(scenario: scenario, port: port, speed: 4)
                    browser.send("restarted")
                }
            }
            let status = browser.wait()
            await current.stop()
            #expect(status == 0, "check_dashboard.py:\n\(transcript.joined(separator: "\n"))")
            #expect(transcript.contains { $0.hasPrefix("RESULT ") }, "check_dashboard.py:\n\(transcript.joined(separator: "\n"))")
            print(transcript.filter { !$0.hasPrefix("RESULT") }.map { "dashboard browser check: " + $0 }.joined(separator: "\n"))
        }
    }
}

/// A dashboard server running in a task of the test, on a port it reports once it listens.
struct RunningDashboard {
    let port: Int
    private let task: Task<Void, any Error>
    private let store: DashboardStore?

    /// Starts a dashboard of `scenario` (or attached to the world at `attach`) with a temporary
    /// store on `port` (0: a free one).
    static func start(scenario: Scenario? = nil, attach: String? = nil, port: Int = 0, speed: Double = 1) async throws -> RunningDashboard {
        let (server, store) = try await DashboardServer.make(scenario: scenario, attach: attach, storeURL: nil,
                                                              configuration: .init(port: port, speed: speed))
        let (ready, announce) = AsyncStream<Int>.makeStream()
        let task = Task {
            defer { announce.finish() }
            try await server.run { port in announce.yield(port) }
        }
        var iterator = ready.makeAsyncIterator()
        guard let listening = await iterator.next() else {
            let reason = if case let .failure(error) = await task.result { "\(error)" } else { "the server stopped" }
            await store?.close()
            throw DashboardError.cannotListen(address: "127.0.0.1", port: port, reason: reason)
        }
        return RunningDashboard(port: listening, task: task, store: store)
    }

    /// Stops the server and waits for it; closes its store.
    func stop() async {
        task.cancel()
        _ = await task.result
        await store?.close()
    }
}
