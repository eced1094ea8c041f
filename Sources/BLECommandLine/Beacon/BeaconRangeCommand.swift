import ArgumentParser
import BLEBeacons
import BLEHost
import BLEWire
import Foundation

/// `ble beacon range`: Core Location-style ranging. Every advertisement of a beacon is an
/// RSSI sample for its filter; once a second the beacons heard are printed closest first
/// with RSSI, filtered RSSI, estimated distance and proximity (BLEBeacons' `BeaconRanger`,
/// default receiver model and thresholds).
///
/// With `--uuid` (and optionally `--major`, `--minor`) only matching iBeacons are ranged;
/// without it every beacon heard is — iBeacon, AltBeacon, Eddystone UID, URL and EID.
struct BeaconRangeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "range",
        abstract: "Range beacons: distance and proximity once a second."
    )

    @Option(help: "Only iBeacons with this proximity UUID (default: every beacon of every format).")
    var uuid: String?

    @Option(help: "Only iBeacons with this major value (needs --uuid).")
    var major: UInt16?

    @Option(help: "Only the iBeacon with this minor value (needs --major).")
    var minor: UInt16?

    @Option(help: "How long to range, in seconds (default: until interrupted).")
    var seconds: Double?

    @Flag(help: "One JSON object per line, per beacon and second.")
    var json = false

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: BeaconArguments.snoopHelp)
    var snoop: String?

    func validate() throws {
        _ = try constraint()
        try BeaconArguments.checkSeconds(seconds)
    }

    private func constraint() throws -> BeaconIdentityConstraint? {
        guard let uuid else {
            if major != nil || minor != nil { throw ValidationError("--major and --minor need --uuid: they only mean something within a UUID.") }
            return nil
        }
        return try BeaconArguments.constraint(uuid: uuid, major: major, minor: minor)
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let constraint = try constraint()
        let opened = try await openAdapter(hci: hci, snoop: snoop)
        do {
            _ = try await opened.host.start()
            var ranger = BeaconRanger<BeaconIdentity>()
            var addresses: [BeaconIdentity: BluetoothAddress] = [:]
            if !json { writeLine("Ranging \(constraint.map { "iBeacons \($0)" } ?? "every beacon")…") }
            for await input in try await BeaconListening.inputs(host: opened.host, seconds: seconds) {
                switch input {
                case let .heard(frame, address, rssi, time):
                    guard let rssi, let identity = frame.identity, Self.admits(frame, constraint) else { continue }
                    ranger.add(frame, rssi: rssi, at: time)
                    addresses[identity] = address
                case let .tick(now):
                    let beacons = ranger.range(at: now)
                    if json {
                        for beacon in beacons { writeLine(BeaconOutput.json(beacon, address: addresses[beacon.identity])) }
                    } else {
                        writeLine("[\(ScanOutput.seconds(now)) s] \(beacons.count) beacon(s)")
                        if !beacons.isEmpty { writeLine(BeaconOutput.heading) }
                        for beacon in beacons { writeLine(BeaconOutput.row(beacon)) }
                    }
                }
            }
            try? await opened.host.stopScanning()
        } catch {
            await opened.close()
            throw CommandFailure("Ranging failed: \(error).")
        }
        await opened.close()
    }

    /// Whether `frame` is ranged: a matching iBeacon, or any beacon without a constraint.
    static func admits(_ frame: BeaconFrame, _ constraint: BeaconIdentityConstraint?) -> Bool {
        guard let constraint else { return true }
        guard case let .iBeacon(beacon) = frame else { return false }
        return constraint.matches(beacon.identity)
    }
}
