import BLEScenarios
import BLEWorld
import Foundation
import Testing

extension BrowserSuites {
    /// The dashboard's page in headless Chromium over a thousand walking beacons beside the bus
    /// fleet (Browser/check_dashboard_crowd.py says what it checks): every walker has a marker,
    /// updates keep being drawn, the RSSI plot stays at 40 series, and the time from a server
    /// tick to the screen is reported. Skipped, saying why, where Chromium, its driver or
    /// Selenium is missing.
    @Suite("Dashboard over a crowd in a browser", .serialized)
    struct DashboardCrowdBrowserTests {
        static let walkers = 1_000

        /// bus-fleet with `count` walkers, each an iBeacon of the passengers' UUID (so the stops'
        /// gateways keep what they hear) advertising every second while it walks from one point
        /// to another of the route's 900 m × 80 m at 1.2 m/s; positions from a fixed seed.
        static func crowd(_ count: Int) throws -> Scenario {
            let base = try #require(BundledScenarios.yaml(named: "bus-fleet"))
            var state: UInt64 = 0x5EED
            func uniform(_ range: ClosedRange<Double>) -> Double {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
            }
            var devices = ""
            for index in 0 ..< count {
                let (x0, y0, x1, y1) = (uniform(-100 ... 800), uniform(-40 ... 40), uniform(-100 ... 800), uniform(-40 ... 40))
                devices += """
                  - name: walker \(index)
                    address: "C1:00:00:00:\(String(format: "%02X:%02X", index >> 8, index & 0xFF))"
                    addressType: random
                    position: [\(x0), \(y0), 1.2]
                    route: {waypoints: [[\(x1), \(y1), 1.2]], speed: 1.2}
                    txPower: -12
                    advertise:
                      type: nonconn_ind
                      interval: 1000
                      iBeacon: {uuid: 5B0C2E1A-7D3F-4A69-8E21-C4F0B9D7A635, major: 100, minor: \(index), measuredPower: -59}
                    startAt: random

                """
            }
            guard let obstacles = base.range(of: "\nobstacles:") else { throw CrowdError.noObstacles }
            var yaml = base
            yaml.insert(contentsOf: "\n" + devices.dropLast(), at: obstacles.lowerBound)
            return try ScenarioLoader.parse(yaml: yaml, file: "bus-fleet-crowd.yaml")
        }

        enum CrowdError: Error { case noObstacles }

        @Test("A thousand walkers: every one on the map, updates drawn, 40 RSSI series at most; tick-to-screen time reported",
              .enabled(if: BrowserHarness.missing == nil, BrowserHarness.skipReason))
        func pageOverCrowd() async throws {
            let scenario = try Self.crowd(Self.walkers)
            #expect(scenario.devices.count == (try BundledScenarios.scenario(named: "bus-fleet")).devices.count + Self.walkers)
            let dashboard = try await RunningDashboard.start(scenario: scenario, port: 0, speed: 1)
            let python = try #require(BrowserHarness.python)
            let script = URL(fileURLWithPath: BrowserHarness.script).deletingLastPathComponent().appendingPathComponent("check_dashboard_crowd.py").path
            let browser = try LineProcess(python, [script, "http://127.0.0.1:\(dashboard.port)/", "\(Self.walkers)"])
            var transcript: [String] = []
            for await line in browser.lines { transcript.append(line) }
            let status = browser.wait()
            await dashboard.stop()
            #expect(status == 0, "check_dashboard_crowd.py:\n\(transcript.joined(separator: "\n"))")
            #expect(transcript.contains { $0.hasPrefix("RESULT ") }, "check_dashboard_crowd.py:\n\(transcript.joined(separator: "\n"))")
            print(transcript.filter { !$0.hasPrefix("RESULT") }.map { "dashboard crowd check: " + $0 }.joined(separator: "\n"))
        }
    }
}
