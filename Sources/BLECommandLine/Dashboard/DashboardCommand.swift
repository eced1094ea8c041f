import ArgumentParser
import BLEAdapter
import BLEDashboard
import Foundation
import Logging

/// `ble dashboard [SCENARIO | --attach URL] [--store URL]`: a page in the browser over a world
/// run in this process with its gateways or attached from a running `ble sim serve
/// --watch-port`, over a fleet store, or both (docs/dashboard.md). A thin shell: BLEDashboard's
/// ``DashboardServer`` runs the world, the store and the page.
struct DashboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Serve a live dashboard of a world with gateways and/or a fleet store on http://ADDRESS:PORT/.",
        discussion: """
            With a scenario that has gateways (bus-fleet, shop, flat or a file), the world runs in this process at \
            --speed, its gateways writing into --store (or a temporary SQLite store), and the page shows the map with \
            live positions, RSSI per beacon and gateway, the event log, and the office view the back end answers over \
            the store. With --attach ws://HOST:PORT, the world is a running `ble sim serve --watch-port`'s (its gateways \
            being `ble gateway` processes writing into --store). With only --store, the page shows the office view of \
            that store. Prints one line \
            READY {"port": N} once it accepts connections; SIGINT or SIGTERM stops it.
            """
    )

    @Argument(help: ArgumentHelp("A scenario file (.yaml) or a built-in scenario with gateways, e.g. bus-fleet.", valueName: "scenario"))
    var scenario: String?

    @Option(help: ArgumentHelp("A running world to show: ws://HOST:PORT of `ble sim serve --watch-port`.", valueName: "url"))
    var attach: String?

    @Option(help: ArgumentHelp("A fleet store holding the gateway schema: sqlite:PATH or postgres://USER@HOST/DATABASE.", valueName: "url"))
    var store: String?

    @Option(name: .customLong("device"), help: ArgumentHelp("A transmitter whose coverage the map shades and whose RSSI the plot shows (repeatable; default: every advertiser).",
                                                            valueName: "name"))
    var devices: [String] = []

    @Option(help: "Simulated seconds per wall-clock second.")
    var speed: Double = 1

    @Option(help: "The port to listen on (0: a free one, printed in the READY line).")
    var port: Int = 8090

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var address: String = "127.0.0.1"

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func validate() throws {
        if let scenario, let problem = Adapter.scenarioProblem(scenario) { throw ValidationError(problem) }
        guard scenario != nil || store != nil || attach != nil else { throw ValidationError(DashboardError.nothingToShow.description) }
        if attach != nil, scenario != nil { throw ValidationError(DashboardError.attachConflict("a scenario").description) }
        if attach != nil, !devices.isEmpty { throw ValidationError(DashboardError.attachConflict("--device").description) }
        guard (0 ... 65_535).contains(port) else { throw ValidationError(DashboardError.invalidPort(port).description) }
        guard speed.isFinite, speed > 0 else { throw ValidationError(DashboardError.invalidSpeed(speed).description) }
    }

    func run() async throws {
        let scenario = try self.scenario.map(loadScenario)
        let (server, opened): (DashboardServer, DashboardStore?)
        do {
            (server, opened) = try await DashboardServer.make(scenario: scenario, attach: attach, devices: devices, storeURL: store,
                                                               configuration: .init(address: address, port: port, speed: speed))
        } catch {
            throw CommandFailure(String(error.description.prefix(1)).uppercased() + error.description.dropFirst() + ".")
        }
        do {
            try await server.run(stopOnSignals: true) { port in
                FileHandle.standardOutput.write(Data("READY {\"port\": \(port)}\n".utf8))
            }
        } catch is CancellationError {
            // Stopped: a normal end.
        } catch {
            await opened?.close()
            throw CommandFailure("The dashboard stopped: \(error); check that \(address) is an address of this machine and port \(port) is free.")
        }
        await opened?.close()
    }
}
