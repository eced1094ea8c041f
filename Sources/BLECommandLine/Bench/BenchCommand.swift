import ArgumentParser

/// `ble bench`: benchmarks of the stack on an embedded world; `--json` prints one object of
/// figures (DESIGN.md, "The command line").
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the stack's throughput on an embedded simulated world.",
        subcommands: [BenchL2CAPCommand.self, BenchNotifyCommand.self, BenchWriteCommand.self]
    )
}
