import ArgumentParser

/// `ble`: SwiftBLE's command line, one executable with a subcommand per task (DESIGN.md,
/// "The command line").
@main
struct BLECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Bluetooth Low Energy from the command line: simulated worlds, scanning, advertising, L2CAP channels, GATT, beacons, benchmarks, bonds.",
        subcommands: subcommands
    )

    private static let subcommands: [any ParsableCommand.Type] = [
        ScanCommand.self, AdvertiseCommand.self, L2CAPCommand.self, GATTCommand.self, ServeCommand.self, BeaconCommand.self, SimCommand.self,
        BenchCommand.self, BondsCommand.self, PairCommand.self, ChatCommand.self, ANCSCommand.self, AMSCommand.self, SnoopCommand.self,
    ]
}
