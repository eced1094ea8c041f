import ArgumentParser
import BLEBeacons
import BLEHost
import BLEWire
import Foundation

/// `ble beacon monitor`: Core Location-style region monitoring of one beacon region. An
/// `enter` line when one of its iBeacons is first heard, an `exit` line once none has been
/// heard for the exit period (BLEBeacons' `BeaconMonitor`), each with its time.
struct BeaconMonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Monitor a beacon region: a line on each enter and exit."
    )

    @Option(help: "The region's proximity UUID.")
    var uuid: String

    @Option(help: "Only iBeacons with this major value.")
    var major: UInt16?

    @Option(help: "Only the iBeacon with this minor value (needs --major).")
    var minor: UInt16?

    @Option(name: .customLong("exit-after"), help: "Seconds without a beacon of the region before it is left.")
    var exitAfter: Double = 30

    @Option(help: "How long to monitor, in seconds (default: until interrupted).")
    var seconds: Double?

    @Flag(help: "One JSON object per line and event.")
    var json = false

    @OptionGroup var controller: ControllerOption

    /// The controller spec to open (`--hci`, else `$SWIFTBLE_HCI`, else `sim`).
    var hci: String { controller.spec }

    @Option(help: BeaconArguments.snoopHelp)
    var snoop: String?

    func validate() throws {
        _ = try BeaconArguments.constraint(uuid: uuid, major: major, minor: minor)
        try BeaconArguments.checkSeconds(seconds)
        try BeaconArguments.checkSeconds(exitAfter, option: "--exit-after")
    }

    @OptionGroup(title: "Logging") var logging: LoggingOptions

    func run() async throws {
        let region = BeaconRegion(identifier: "ble", constraint: try BeaconArguments.constraint(uuid: uuid, major: major, minor: minor))
        var monitor = BeaconMonitor(configuration: MonitoringConfiguration(exitPeriod: .microseconds(Int64(exitAfter * 1_000_000))))
        let opened = try await openAdapter(hci: hci, snoop: snoop)
        do {
            _ = try await opened.host.start()
            try monitor.startMonitoring(region, at: 0)
            if !json { writeLine("Monitoring iBeacons \(region.constraint); exit after \(BeaconOutput.decimal(exitAfter, places: 3)) s without one…") }
            for await input in try await BeaconListening.inputs(host: opened.host, seconds: seconds) {
                switch input {
                case let .heard(frame, address, _, time):
                    report(monitor.detected(frame, at: time), frame: frame, address: address)
                case let .tick(now):
                    report(monitor.tick(at: now), frame: nil, address: nil)
                }
            }
            try? await opened.host.stopScanning()
        } catch {
            await opened.close()
            throw CommandFailure("Monitoring failed: \(error).")
        }
        await opened.close()
    }

    /// Prints the enters and exits among `events`, and a state determined without one (the
    /// first "outside", once no beacon was heard for the exit period, as Core Location's
    /// `didDetermineState` says it); a state beside an enter or exit is its companion.
    private func report(_ events: [MonitorEvent], frame: BeaconFrame?, address: BluetoothAddress?) {
        let transition = events.contains { if case .didDetermineState = $0 { false } else { true } }
        for event in events { report(event, frame: frame, address: address, companion: transition) }
    }

    /// Prints an enter, an exit or (unless `companion`) a state; an entry names the beacon
    /// that caused it.
    private func report(_ event: MonitorEvent, frame: BeaconFrame?, address: BluetoothAddress?, companion: Bool) {
        let word: String
        switch event {
        case .didEnter: word = "enter"
        case .didExit: word = "exit"
        case let .didDetermineState(state, _, _):
            guard !companion, state != .unknown else { return }
            word = state.description
        }
        var beacon: IBeaconIdentity?
        if word == "enter", case let .iBeacon(frame)? = frame { beacon = frame.identity }
        if json {
            var fields = ["\"event\": \"\(word)\"", "\"time\": \(ScanOutput.seconds(event.time))",
                          "\"region\": \(BeaconOutput.json(event.region.constraint))"]
            if let beacon {
                fields.append("\"beacon\": {\"uuid\": \(ScanOutput.quoted(beacon.uuid.uuidString)), \"major\": \(beacon.major), \"minor\": \(beacon.minor)}")
            }
            if let address { fields.append("\"address\": \(ScanOutput.quoted(address.description))") }
            writeLine("{" + fields.joined(separator: ", ") + "}")
        } else {
            let cause = beacon.map { " (heard \(BeaconOutput.label(.iBeacon($0)))" + (address.map { " from \($0)" } ?? "") + ")" } ?? ""
            writeLine("\(ScanOutput.seconds(event.time)) s  \(word)  \(event.region.constraint)\(cause)")
        }
    }
}
