import ArgumentParser
import BLEBeacons

/// `ble beacon`: send iBeacons and watch for them like Core Location does — region
/// monitoring (enter, exit) and ranging (distance and proximity once a second).
struct BeaconCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacon",
        abstract: "Emit an iBeacon, monitor a beacon region, or range beacons.",
        subcommands: [BeaconEmitCommand.self, BeaconMonitorCommand.self, BeaconRangeCommand.self]
    )
}

/// What the beacon commands share: reading `--uuid`, `--major` and `--minor`.
enum BeaconArguments {
    /// The proximity UUID `text` names, or the one-sentence error for it.
    static func uuid(_ text: String) throws -> ProximityUUID {
        guard let uuid = ProximityUUID(text) else {
            throw ValidationError("--uuid \(text) is not a proximity UUID: use the 8-4-4-4-12 form, e.g. E2C56DB5-DFFB-48D2-B060-D0F5A71096E0.")
        }
        return uuid
    }

    /// The iBeacons `--uuid`, `--major` and `--minor` cover; a minor without a major is
    /// refused, as Core Location's `CLBeaconIdentityConstraint` refuses it.
    static func constraint(uuid text: String, major: UInt16?, minor: UInt16?) throws -> BeaconIdentityConstraint {
        let uuid = try uuid(text)
        do {
            return try BeaconIdentityConstraint.validated(uuid: uuid, major: major, minor: minor)
        } catch {
            throw ValidationError("--minor needs --major: a minor value only names a beacon within its major.")
        }
    }

    /// `--seconds` must be a positive duration up to a day.
    static func checkSeconds(_ seconds: Double?, option: String = "--seconds") throws {
        try ArgumentChecks.duration(seconds, option: option, maximum: 86_400)
    }

    /// The help of every beacon command's `--snoop`.
    static let snoopHelp: ArgumentHelp = "Write every HCI packet through the host to this btsnoop file."
}
