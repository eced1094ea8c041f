import ArgumentParser
import BLE
import BLELogging
import Foundation
import Logging

/// `ble`: SwiftBLE's command line, one executable with a subcommand per task (DESIGN.md,
/// "The command line").
@main
struct BLECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Bluetooth Low Energy from the command line: simulated worlds, scanning, advertising, L2CAP channels, GATT, beacons, gateways, presence, benchmarks, bonds.",
        version: SwiftBLEVersion.summary,
        subcommands: subcommands
    )

    /// Runs the command line after taking out the logging options every command shares:
    /// `--log-level LEVEL` (all layers) and `--log LAYER=LEVEL` (repeatable), which set
    /// ``BLELogging/BLELog``'s levels as `SWIFTBLE_LOG` does; log lines go to standard error.
    /// A negative number after an option is its value (``NegativeNumberArguments``).
    static func main() async {
        var arguments: [String]
        do {
            arguments = try LoggingArguments.extract(from: NegativeNumberArguments.joined(Array(CommandLine.arguments.dropFirst())))
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            Foundation.exit(64)
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        if let problem = CommandSuggestion.problem(in: arguments, root: Self.self) {
            FileHandle.standardError.write(Data("Error: \(problem)\n".utf8))
            Foundation.exit(64)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    private static let subcommands: [any ParsableCommand.Type] = [
        ScanCommand.self, AdvertiseCommand.self, PeriodicCommand.self, L2CAPCommand.self, GATTCommand.self, ServeCommand.self, BeaconCommand.self, SimCommand.self,
        BenchCommand.self, BondsCommand.self, PairCommand.self, ChatCommand.self, ANCSCommand.self, AMSCommand.self, SnoopCommand.self,
        VHCICommand.self, GatewayCommand.self, PresenceCommand.self, BackendCommand.self, DashboardCommand.self,
    ]
}
