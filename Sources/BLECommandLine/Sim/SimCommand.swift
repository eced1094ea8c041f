import ArgumentParser
import BLEAdapter
import BLEWorld

/// `ble sim`: simulated worlds, run headless or served to outside hosts.
struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run or serve a simulated world of BLE devices.",
        subcommands: [SimRunCommand.self, SimServeCommand.self, SimMapCommand.self]
    )
}

/// Loads a scenario named on the command line: a built-in name or a path to a YAML file.
func loadScenario(_ argument: String) throws -> Scenario {
    do {
        return try Adapter.scenario(named: argument)
    } catch let error as AdapterError {
        throw CommandFailure(error.description)
    }
}
