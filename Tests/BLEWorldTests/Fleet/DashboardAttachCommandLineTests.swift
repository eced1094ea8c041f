import Foundation
import Glibc
import SimulatedTesting
import Testing

/// `ble dashboard --attach` over real processes: `ble sim serve --watch-port` runs the bus's
/// world and streams its state, real `ble gateway` processes drive the stops' served
/// controllers and write into SQLite, and the dashboard shows the served world's map while its
/// office view (the back end over that store) answers where bus 42 is.
@Suite("ble dashboard --attach", .ownThread, .takesTurns)
struct DashboardAttachCommandLineTests {
    /// The gateway fault test's bus and stops, with the stops' zones for the world's event log.
    static let scenario = GatewayFaultCommandLineTests.scenario + """

        zones:
          - {name: stop 1, box: {min: [85, -4, 0], max: [115, 12, 5]}}
          - {name: stop 2, box: {min: [335, -4, 0], max: [365, 12, 5]}}
          - {name: stop 3, box: {min: [585, -4, 0], max: [615, 12, 5]}}
        """

    /// One HTTP GET to 127.0.0.1:`port`, the whole answer (status line, headers, body) as text.
    private func get(_ port: Int, _ path: String) throws -> String {
        let client = try TCPClient(port: port)
        defer { client.close() }
        try client.send(Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
        return String(decoding: client.read(timeoutSeconds: 10), as: UTF8.self)
    }

    /// The port a command's `READY {"port": N}` line names, once it prints it (at most 60 s).
    private func readyPort(_ command: LineProcess) -> Int? {
        command.waitForLine(containing: "READY ", timeoutSeconds: 60)
            .flatMap { (try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8))) as? [String: Any] }?["port"] as? Int
    }

    @Test("The attached dashboard draws the served world and its office view finds bus 42 at a stop, from the gateways' store")
    func attachedOverGatewayStore() throws {
        let ble = try #require(bleExecutable())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ble-dashboard-attach-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("bus.yaml")
        try Self.scenario.write(to: scenario, atomically: true, encoding: .utf8)
        let database = "sqlite:" + folder.appendingPathComponent("fleet.sqlite").path
        let check = try runProcess(ble, ["gateway", "--check", "--database", database])
        try #require(check.status == 0, "\(check.stderr)")

        let world = try ServedWorld(executable: ble, arguments: ["sim", "serve", scenario.path, "--tcp-base-port", "0", "--speed", "8", "--watch-port", "0"])
        defer { world.stop() }
        let watch = try #require(world.watch, "the READY line names no watch port")
        var fleet = "gateways:\n"
        for device in world.devices {
            let zone = device.name.replacingOccurrences(of: "-", with: " ")
            fleet += "  - {name: \"\(device.name)\", hci: \"tcp:127.0.0.1:\(device.port)\", zone: \"\(zone)\", "
                + "keep: {ibeacon: [\(GatewayFaultCommandLineTests.busUUID)]}}\n"
        }
        let fleetFile = folder.appendingPathComponent("fleet.yaml")
        try fleet.write(to: fleetFile, atomically: true, encoding: .utf8)
        // At debug the gateways log each batch they store; they keep only the bus's beacons,
        // which only a stop's gateway hears, so the first stored batch places the bus at a stop.
        let gateways = try LineProcess(ble, ["gateway", "--fleet", fleetFile.path, "--database", database,
                                             "--spool", folder.appendingPathComponent("spool").path, "--log", "gateway=debug"], standardError: true)
        defer { gateways.stop() }
        let dashboard = try LineProcess(ble, ["dashboard", "--attach", "ws://127.0.0.1:\(watch)", "--store", database, "--port", "0"],
                                        standardError: true)
        defer { dashboard.stop() }
        let port = try #require(readyPort(dashboard), "ble dashboard did not start: \(dashboard.output)")
        try #require(gateways.waitForLine(containing: "Stored a batch", timeoutSeconds: 90) != nil, "no batch stored: \(gateways.output)")

        // The office view's question, once a stop's gateway has stored the bus.
        let locations = try get(port, "/api/locations")
        #expect(locations.hasPrefix("HTTP/1.1 200"), "\(locations)")
        #expect(locations.contains("\"zone\":\"stop "), "no stop placed the bus: \(locations)\n\(gateways.output)")
        let map = try get(port, "/map.svg")
        #expect(map.hasPrefix("HTTP/1.1 200") && map.contains(">stop-2</text>"), "the attached world's plan: \(map.prefix(300))")
        #expect(try get(watch, "/").hasPrefix("HTTP/1.1 200"), "sim serve's own page")
        #expect(world.process.isRunning)
        #expect(!dashboard.output.contains("cannot be reached"), "\(dashboard.output)")
    }

    @Test("sim serve watches a world without external devices; a bad --watch-port or --attach is refused with a sentence")
    func options() throws {
        let ble = try #require(bleExecutable())
        let world = try ServedWorld(executable: ble, arguments: ["sim", "serve", "bus-fleet", "--watch-port", "0"])
        defer { world.stop() }
        #expect(world.ports.isEmpty && world.watch != nil)
        let port = try #require(world.watch)
        #expect(try get(port, "/map.svg").contains(">stop 3 gateway</text>"))
        let badPort = try runProcess(ble, ["sim", "serve", "bus-fleet", "--watch-port", "70000"])
        #expect(badPort.status != 0 && badPort.stderr.contains("--watch-port"), "\(badPort.stderr)")
        let badAttach = try runProcess(ble, ["dashboard", "--attach", "ftp://127.0.0.1:1"])
        #expect(badAttach.status != 0 && badAttach.stderr.contains("--attach \"ftp://127.0.0.1:1\""), "\(badAttach.stderr)")
        let both = try runProcess(ble, ["dashboard", "bus-fleet", "--attach", "ws://127.0.0.1:1"])
        #expect(both.status != 0 && both.stderr.contains("cannot be given with --attach"), "\(both.stderr)")
    }
}
