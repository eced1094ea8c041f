import ArgumentParser
import BLEController
import BLEWire
import BLEWorld
import Foundation

/// `ble scan`: discover advertisers, as `bluetoothctl scan on` and Core Bluetooth's
/// `scanForPeripherals` do. Today it scans the embedded simulated world (`--hci sim`, the
/// default, or `sim:FILE.yaml`) through real HCI to the world's controller; the host core
/// brings the other controllers.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan for advertising devices and show them as a live table or JSON lines."
    )

    @Option(help: "How long to scan, in seconds.")
    var seconds: Double = 10

    @Flag(help: "Passive scanning: no scan requests, so no scan responses.")
    var passive = false

    @Flag(help: "Report every advertisement, not only new devices and changed data.")
    var duplicates = false

    @Option(help: "Only devices advertising this service UUID (repeatable), e.g. 180D.")
    var service: [String] = []

    @Flag(help: "One JSON object per line and advertisement instead of the table.")
    var json = false

    @Option(help: "The controller: sim (the built-in neighbourhood), sim:FILE.yaml.")
    var hci: String = "sim"

    @Option(help: "Write every HCI packet of the scanning controller to this btsnoop file.")
    var snoop: String?

    @Option(help: "The simulated world's seed (default: the scenario's).")
    var seed: UInt64?

    func validate() throws {
        guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw ValidationError("--seconds must be between 0 and 86400.")
        }
        for text in service where BluetoothUUID(text) == nil {
            throw ValidationError("--service \(text) is not a UUID: use 4 or 8 hex digits (180D) or the 128-bit form.")
        }
    }

    func run() async throws {
        #if SWIFTBLE_ADAPTER
        try await runOnHost()
        #else
        try await runOnEmbeddedWorld()
        #endif
    }

    /// The scan before the host stack: the embedded world only, with a mini host.
    private func runOnEmbeddedWorld() async throws {
        var scenario = try scenarioForHCI()
        if let seed { scenario.seed = seed }
        if !scenario.devices.contains(where: { $0.host == .external }) {
            scenario = scenario.addingExternalDevices(1)
        }
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio))
        let built: BuiltScenario
        do {
            built = try scenario.build(into: world)
        } catch {
            throw CommandFailure(error.description)
        }
        guard let local = built.externalDevices.first else { throw CommandFailure("The scenario has no device to scan from.") }
        built.onLog = { printError($0) }

        let filter = service.compactMap(BluetoothUUID.init)
        var merger = AdvertisementMerger(allowDuplicates: duplicates)
        var failure: String?
        var started: Microseconds?
        let json = self.json
        built.onExternalHostPacket = { [unowned world] device, packet in
            guard device == local, case let .event(eventPacket) = packet, let event = try? HCI.Event(decoding: eventPacket) else { return }
            switch event {
            case let .commandComplete(done) where (done.returnParameters.first ?? 0) != 0:
                failure = "the controller refused \(done.opcode.name ?? done.opcode.description): status 0x\(String(done.returnParameters.first ?? 0, radix: 16))"
            case let .commandComplete(done) where done.opcode == HCI.LESetScanEnable.opcode:
                started = world.now
            case let .leMeta(.advertisingReport(reports)):
                let elapsed = world.now - (started ?? world.now)
                for report in reports.reports {
                    guard let record = merger.add(report, at: elapsed) else { continue }
                    if !filter.isEmpty, !(record.merged.serviceUUIDs ?? []).contains(where: filter.contains) { continue }
                    if json { print(ScanOutput.json(record, time: elapsed)) }
                }
            default:
                break
            }
        }
        // A host's start-up and scan set-up, in order: the controller answers each in turn.
        let commands: [HCI.CommandPacket] = [
            try HCI.CommandPacket(HCI.Reset()),
            try HCI.CommandPacket(HCI.SetEventMask(eventMask: HCI.EventMask.defaultAfterReset.union(.leMeta))),
            try HCI.CommandPacket(HCI.LESetScanParameters(
                leScanType: passive ? .passive : .active, leScanInterval: 0x0060, leScanWindow: 0x0060,
                ownAddressType: .public, scanningFilterPolicy: .basicUnfiltered)),
            try HCI.CommandPacket(HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false)),
        ]
        for command in commands { world.sendToController(.command(command), device: local) }

        // Paced to the wall clock so the table fills as a real scan would: the world advances
        // in 50 ms steps of simulated time and the task sleeps until each step is due.
        let clock = ContinuousClock()
        let wallStart = clock.now
        let worldStart = world.now
        let step: Microseconds = 50_000
        let total = Microseconds(seconds * 1_000_000)
        let live = !json && isatty(STDOUT_FILENO) == 1
        var lastDraw: Microseconds = 0
        var elapsed: Microseconds = 0
        while elapsed < total {
            elapsed = min(total, elapsed + step)
            world.run(until: worldStart + elapsed)
            if let failure { throw CommandFailure("Scanning failed: \(failure).") }
            if live, elapsed - lastDraw >= 500_000 || elapsed == total {
                lastDraw = elapsed
                print("\u{1B}[H\u{1B}[2J" + ScanOutput.table(Array(merger.records.values), elapsed: elapsed))
            }
            try await clock.sleep(until: wallStart.advanced(by: .microseconds(elapsed)))
        }
        if !json && !live {
            print(ScanOutput.table(Array(merger.records.values), elapsed: elapsed))
        }
        if let snoop {
            do {
                try Data(world.snoop(of: local)).write(to: URL(fileURLWithPath: snoop))
            } catch {
                throw CommandFailure("Cannot write the capture to \(snoop): \(error.localizedDescription).")
            }
        }
    }

    /// The scenario `--hci` names; controllers other than the embedded world need the host core.
    private func scenarioForHCI() throws -> Scenario {
        if hci == "sim" { return try loadScenario("neighbourhood") }
        if hci.hasPrefix("sim:") { return try loadScenario(String(hci.dropFirst(4))) }
        if hci.hasPrefix("tcp:") || hci.hasPrefix("unix:") || hci.hasPrefix("serial:") || hci.hasPrefix("hci:") {
            throw CommandFailure("--hci \(hci) is not supported yet: `ble scan` drives only the embedded world "
                                 + "(sim, sim:FILE.yaml) until the host core lands.")
        }
        throw CommandFailure("--hci \(hci) is not a controller: use sim, sim:FILE.yaml, tcp:HOST:PORT, unix:PATH, "
                             + "serial:DEV[@BAUD] or hci:N.")
    }
}
