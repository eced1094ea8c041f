import BLEFleetStore
import BLEScenarios
import Foundation
import Testing
@testable import BLEDashboard

/// Bad input to the dashboard: each refused with a sentence that names the value and what is accepted.
@Suite("Dashboard errors")
struct DashboardErrorTests {
    @Test("An unknown --device is refused, naming the scenario's devices")
    func unknownDevice() async throws {
        let scenario = try BundledScenarios.scenario(named: "bus-fleet")
        let error = await #expect(throws: DashboardError.self) {
            _ = try await DashboardServer.make(scenario: scenario, devices: ["bus 43"], storeURL: nil, configuration: .init(port: 0))
        }
        guard case let .unknownDevice(name, known)? = error else {
            Issue.record("expected unknownDevice, got \(String(describing: error))")
            return
        }
        #expect(name == "bus 43" && known.contains("bus front beacon"))
        #expect(error?.description.hasPrefix("no device is called \"bus 43\" in the scenario; --device takes one of \"stop 1 gateway\"") == true)
    }

    @Test("A scenario without gateways is refused with the reason")
    func noGateways() async throws {
        let scenario = try BundledScenarios.scenario(named: "bus-route")
        await #expect(throws: DashboardError.scenario("scenario \"bus route\" has no gateway: give a scanning device gateway: {zone: NAME}")) {
            _ = try await DashboardServer.make(scenario: scenario, storeURL: nil, configuration: .init(port: 0))
        }
    }

    @Test("A store without the gateway schema is refused, naming it and how to create the schema")
    func storeWithoutSchema() async throws {
        let directory = NSTemporaryDirectory() + "swiftble-dashboard-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = "sqlite:" + directory + "/empty.sqlite"
        let error = await #expect(throws: DashboardError.self) {
            _ = try await DashboardStore.open(url)
        }
        guard case let .noGatewaySchema(named, _)? = error else {
            Issue.record("expected noGatewaySchema, got \(String(describing: error))")
            return
        }
        #expect(named == url)
        #expect(error?.description.contains("has no gateway schema") == true)
        #expect(error?.description.contains("ble backend --check --database \(url)") == true)
    }

    @Test("A migrated store opens, and a dashboard over it alone has no world")
    func migratedStore() async throws {
        let directory = NSTemporaryDirectory() + "swiftble-dashboard-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/fleet.sqlite"
        let store = SQLiteFleetStore(path: path)
        try await store.migrate()
        await store.close()
        let (_, opened) = try await DashboardServer.make(scenario: nil, storeURL: "sqlite:" + path, configuration: .init(port: 0))
        #expect(opened?.url == "sqlite:" + path)
        await opened?.close()
    }

    @Test("Neither a scenario nor a store, a speed of 0 and port 70000 are refused")
    func nothingToShow() async throws {
        await #expect(throws: DashboardError.nothingToShow) {
            _ = try await DashboardServer.make(scenario: nil, storeURL: nil, configuration: .init(port: 0))
        }
        let scenario = try BundledScenarios.scenario(named: "bus-fleet")
        await #expect(throws: DashboardError.invalidSpeed(0)) {
            _ = try await DashboardServer.make(scenario: scenario, storeURL: nil, configuration: .init(port: 0, speed: 0))
        }
        await #expect(throws: DashboardError.invalidPort(70000)) {
            _ = try await DashboardServer.make(scenario: scenario, storeURL: nil, configuration: .init(port: 70000))
        }
    }
}
