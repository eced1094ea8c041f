import ArgumentParser
import BLEAdapter
import BLEWorld
import Foundation

/// `ble sim`: simulated worlds, run headless or served to outside hosts.
struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run or serve a simulated world of BLE devices.",
        subcommands: [SimRunCommand.self, SimServeCommand.self]
    )
}

/// A failure of a `ble` command, printed to stderr as one sentence that says what to do.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Loads a scenario named on the command line: a built-in name or a path to a YAML file.
func loadScenario(_ argument: String) throws -> Scenario {
    do {
        return try Adapter.scenario(named: argument)
    } catch let error as AdapterError {
        throw CommandFailure(error.description)
    }
}

/// Writes a line to stderr.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
