import ArgumentParser
import BLEHost
import BLEWire
import Foundation

/// `ble advertise`: make the controller a legacy advertiser (Core 5.4, Vol 3, Part C,
/// §9.1–9.3), as `bluetoothctl advertise on` does, on any `--hci` controller.
struct AdvertiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Advertise a name, services and manufacturer data until the time is up."
    )

    @Option(help: "The complete local name to advertise.")
    var name: String?

    @Option(help: "A service UUID to list (repeatable), e.g. 180D or 0x180D.")
    var service: [String] = []

    @Option(help: "Manufacturer specific data as hex: the company identifier (little-endian) first, e.g. 4C0001.")
    var manufacturer: String?

    @Flag(help: "Advertise as a non-connectable beacon (ADV_NONCONN_IND).")
    var nonconnectable = false

    @Option(help: "The advertising interval in milliseconds (20 to 10240).")
    var interval: Double = 100

    @Flag(help: "Advertise with an extended advertising set (Bluetooth 5): non-connectable unless --connectable, the data up to 1,650 octets, the name never shortened.")
    var extended = false

    @Flag(help: "With --extended: a connectable set (its data in one AUX_ADV_IND, at most 245 octets); a connection made from it ends it, and it starts again once the connection is down.")
    var connectable = false

    @Option(name: .customLong("data-size"), help: "With --extended: fill the advertising data to this many octets (up to 1650) with test manufacturer data (company 0xFFFF).")
    var dataSize: Int?

    @Option(help: "With --extended: the PHY, 1m, 2m (the AUX packets on LE 2M) or coded (every packet on LE Coded, for range).")
    var phy: String = "1m"

    @Option(name: .customLong("coded-s"), help: "With --phy coded: the coding, 2 (S=2, 500 kb/s) or 8 (S=8, 125 kb/s, the longest reach); default: the controller's choice.")
    var codedS: Int?

    @Option(help: "With --extended: the set's Advertising SID (0 to 15).")
    var sid: UInt8 = 0

    @Option(help: "With --extended: also send a periodic train every this many milliseconds (7.5 to 4800), carrying the set's data or --periodic-data.")
    var periodic: Double?

    @Option(name: .customLong("periodic-data"), help: "With --periodic: the train's data as hex (up to 1650 octets) instead of the set's.")
    var periodicData: String?

    @Option(help: "How long to advertise, in seconds (default: until interrupted).")
    var seconds: Double?

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: "Write every HCI packet through the host to this btsnoop file.")
    var snoop: String?

    @OptionGroup(title: "Privacy") var privacyOptions: PrivacyOptions

    func validate() throws {
        try ArgumentChecks.duration(seconds, option: "--seconds", maximum: 86_400)
        // The controller's range (Core 5.4, Vol 4, Part E, §7.8.5), checked with the other options.
        guard interval.isFinite, (20 ... 10_240).contains(interval) else {
            throw ValidationError("--interval \(interval.formatted(decimals: 3)) ms is outside 20 ms to 10240 ms, the range a controller accepts.")
        }
        try ArgumentChecks.uuids(service, option: "--service")
        try validateExtended()
        if let manufacturer, bytes(fromHex: manufacturer).map({ $0.count >= 2 }) != true {
            throw ValidationError("--manufacturer \(manufacturer) must be hex octets (4C0001 or 0x4C0001), at least the two of the company identifier.")
        }
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let content = GAPAdvertisingContent(
            name: name, services: service.compactMap(ArgumentChecks.uuid), manufacturerData: manufacturer.flatMap { bytes(fromHex: $0) })
        let parameters: GAPAdvertisingParameters
        do {
            parameters = extended ? try extendedParameters()
                : try content.parameters(kind: nonconnectable ? .nonConnectable : .connectable, intervalMilliseconds: interval)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("Cannot advertise that: \(error).")
        }
        // A name cut to fit is said, not hidden: scanners show only what they receive.
        if let name, let received = parameters.data.localName ?? parameters.scanResponse.localName, received != name {
            printError("The name takes \(name.utf8.count) octets, more than an advertising PDU holds: scanners receive \"\(received)\" "
                       + "(\(received.utf8.count) octets, a Shortened Local Name) in the "
                       + "\(parameters.scanResponse.localName == nil ? "advertisement" : "scan response").")
        }
        let opened = try await openAdapter(hci: hci, snoop: snoop)
        do {
            let info = try await opened.host.start()
            try await privacyOptions.enable(on: opened.host, hci: hci)
            try await opened.host.startAdvertising(parameters)
            // With its type, as ble scan prints it and the commands that connect take it.
            let identity = info.address.map { PeerAddress($0, type: $0.kind == .random ? .random : .public).description }
                ?? "the controller's address"
            let address = privacyOptions.privacy ? "a resolvable private address (identity \(identity))" : identity
            FileHandle.standardOutput.write(Data("Advertising \(name.map { "\"\($0)\" " } ?? "")from \(address)\n".utf8))
            // The user asked to advertise for this long (or until interrupted): the controller
            // does the work; the command only waits out the duration, on the adapter's clock,
            // before stopping it.
            try await opened.clock.sleep(seconds: seconds ?? 86_400 * 365)
            try await opened.host.stopAdvertising()
        } catch {
            await opened.close()
            throw CommandFailure("Advertising failed: \(error).")
        }
        await opened.close()
    }
}
