@testable import BLECommandLine
import Testing

/// `ble dashboard`: what it accepts and what it refuses before it starts anything.
@Suite("ble dashboard")
struct DashboardCommandTests {
    @Test("ble dashboard is one of ble's subcommands")
    func registered() {
        #expect(BLECommand.configuration.subcommands.contains { $0 == DashboardCommand.self })
    }

    @Test("A scenario, a store, devices, speed and port reach the command")
    func parses() throws {
        let command = try DashboardCommand.parse(["bus-fleet", "--store", "sqlite:fleet.sqlite", "--device", "bus middle beacon",
                                                  "--speed", "4", "--port", "0"])
        #expect(command.scenario == "bus-fleet" && command.store == "sqlite:fleet.sqlite" && command.devices == ["bus middle beacon"])
        #expect(command.speed == 4 && command.port == 0 && command.address == "127.0.0.1")
        #expect(try DashboardCommand.parse(["--store", "sqlite:fleet.sqlite"]).scenario == nil)
    }

    @Test("Nothing to show, an unknown scenario, a speed of 0 and port 70000 are usage errors", arguments: [
        [String](), ["no-such-scenario"], ["bus-fleet", "--speed", "0"], ["bus-fleet", "--port", "70000"],
    ])
    func refuses(arguments: [String]) {
        #expect(throws: (any Error).self) { try DashboardCommand.parse(arguments) }
    }
}
