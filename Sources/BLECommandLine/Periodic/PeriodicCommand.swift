import ArgumentParser

/// `ble periodic`: Bluetooth 5's periodic advertising from the receiving side (Core 5.4,
/// Vol 3, Part C, §9.5); a train is sent with `ble advertise --extended --periodic MS`.
struct PeriodicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "periodic",
        abstract: "Follow periodic advertising trains (Bluetooth 5).",
        subcommands: [PeriodicSyncCommand.self]
    )
}
