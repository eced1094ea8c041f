import ArgumentParser
import BLEBeacons
import BLEHost
import BLEWire
import Foundation

/// `ble beacon emit`: advertise an iBeacon frame — exactly `02 01 06 1A FF 4C 00 02 15` +
/// UUID + major + minor + measured power — as a non-connectable advertisement
/// (ADV_NONCONN_IND, Core 5.4, Vol 6, Part B, §2.3.1.3) until the time is up.
struct BeaconEmitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emit",
        abstract: "Advertise an iBeacon until the time is up."
    )

    @Option(help: "The proximity UUID, e.g. E2C56DB5-DFFB-48D2-B060-D0F5A71096E0.")
    var uuid: String

    @Option(help: "The major value, 0 to 65535.")
    var major: UInt16

    @Option(help: "The minor value, 0 to 65535.")
    var minor: UInt16

    @Option(parsing: .unconditional, help: "The measured power: the RSSI at 1 m, in dBm.")
    var power: Int = -59

    @Option(help: "The advertising interval in milliseconds (20 to 10240); 100 ms is what Apple recommends for iBeacons.")
    var interval: Double = 100

    @Option(help: "How long to emit, in seconds (default: until interrupted).")
    var seconds: Double?

    @Flag(help: "Advertise as ADV_IND, as an iPhone sends an iBeacon, instead of ADV_NONCONN_IND (same octets).")
    var connectable = false

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: BeaconArguments.snoopHelp)
    var snoop: String?

    func validate() throws {
        _ = try BeaconArguments.uuid(uuid)
        try BeaconArguments.checkSeconds(seconds)
        guard Int8(exactly: power) != nil else {
            throw ValidationError("--power \(power) is outside -128 to 127 dBm, the range of the measured power (typically about -59).")
        }
        guard interval.isFinite, interval >= 20, interval <= 10_240 else {
            throw ValidationError("--interval \(interval) is outside 20 ms to 10240 ms.")
        }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let frame = IBeacon(uuid: try BeaconArguments.uuid(uuid), major: major, minor: minor, measuredPower: Int8(clamping: power))
        // Units of 0.625 ms (Vol 4, Part E, §7.8.5).
        let units = UInt16(min(0x4000, max(0x0020, (interval / 0.625).rounded())))
        let parameters = GAPAdvertisingParameters(
            kind: connectable ? .connectable : .nonConnectable, intervalMin: units, intervalMax: units, data: frame.advertisingData)
        let opened = try await openAdapter(hci: hci, snoop: snoop)
        do {
            let info = try await opened.host.start()
            try await opened.host.startAdvertising(parameters)
            let address = info.address.map(\.description) ?? "the controller's address"
            let kind = connectable ? "ADV_IND" : "ADV_NONCONN_IND"
            writeLine("Emitting iBeacon \(frame.identity) at \(frame.measuredPower) dBm every \(BeaconOutput.decimal(interval, places: 3)) ms from \(address) (\(kind))")
            writeLine("data \(Hex.encode(try frame.advertisingData.encodedLegacy()))")
            // The controller sends the beacon; the command only waits out the time asked for,
            // on the adapter's clock (an embedded world's virtual time, paced to real time).
            try await opened.clock.sleep(seconds: seconds ?? 86_400 * 365)
            try await opened.host.stopAdvertising()
        } catch {
            await opened.close()
            throw CommandFailure("Emitting the beacon failed: \(error).")
        }
        await opened.close()
    }
}
