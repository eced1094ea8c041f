import BLEWire

/// The scanning variant of ``ScriptedHost``: a tiny host inside the world for a device
/// that only listens (a phone in a scenario), speaking real HCI to its controller so the
/// controller's scanner runs exactly as under any other host.
///
/// A sans-IO state machine like ``ScriptedHost``: it sends one command at a time and waits
/// for its Command Complete (Core 5.4, Vol 4, Part E, §4.4): HCI_Reset, HCI_Set_Event_Mask
/// (LE Meta on, so advertising reports reach the host), HCI_LE_Set_Random_Address (random
/// addresses), HCI_LE_Set_Scan_Parameters (§7.8.10) and HCI_LE_Set_Scan_Enable (§7.8.11)
/// with Filter_Duplicates off, so every advertisement heard becomes an LE Advertising
/// Report (§7.7.65.2) — ranging needs each one. An extended scan (``Plan/extended``) sends
/// HCI_LE_Set_Event_Mask with LE Extended Advertising Report on, then
/// HCI_LE_Set_Extended_Scan_Parameters (§7.8.64) and HCI_LE_Set_Extended_Scan_Enable
/// (§7.8.65) instead, and hears LE Extended Advertising Reports (§7.7.65.13) on LE 1M, LE
/// Coded or both; with ``Plan/periodicSync`` it then sends HCI_LE_Periodic_Advertising_Create_Sync
/// (§7.8.67) and hears the train's LE Periodic Advertising Reports. A command that fails stops the sequence.
public struct ScriptedScanner: Sendable {
    /// What the scanner sets up.
    public struct Plan: Hashable, Sendable {
        /// The device's name, for logs.
        public var deviceName: String
        /// The random address to set, or `nil` to scan with the public address.
        public var randomAddress: BluetoothAddress?
        /// The scan parameters.
        public var parameters: HCI.LESetScanParameters
        /// The extended scan to set up instead of the legacy one, or `nil`.
        public var extended: HCI.LESetExtendedScanParameters?
        /// The periodic train to synchronise to once scanning (extended scans only), or `nil`.
        public var periodicSync: HCI.LEPeriodicAdvertisingCreateSync?

        /// A plan with every field.
        public init(deviceName: String, randomAddress: BluetoothAddress?, parameters: HCI.LESetScanParameters,
                    extended: HCI.LESetExtendedScanParameters? = nil, periodicSync: HCI.LEPeriodicAdvertisingCreateSync? = nil) {
            self.deviceName = deviceName
            self.randomAddress = randomAddress
            self.parameters = parameters
            self.extended = extended
            self.periodicSync = periodicSync
        }
    }

    /// The plan.
    public let plan: Plan
    /// Whether the scan is enabled (the last command was answered with success).
    public private(set) var isScanning = false
    /// The command that failed, if the scanner stopped on one.
    public private(set) var failure: ScriptedHost.Failure?

    private var waitingFor: HCI.Opcode?
    private var pending: [HCI.CommandPacket] = []

    /// A scanner that will carry out `plan`.
    public init(plan: Plan) { self.plan = plan }

    /// The setup commands in order.
    public func setupCommands() -> [HCI.CommandPacket] {
        var commands: [HCI.CommandPacket] = []
        func add<Command: HCICommand>(_ command: Command) {
            if let packet = try? HCI.CommandPacket(command) { commands.append(packet) }
        }
        add(HCI.Reset())
        add(HCI.SetEventMask(eventMask: [.disconnectionComplete, .hardwareError, .leMeta]))
        if plan.extended != nil {
            var mask = HCI.LEEventMask.defaultAfterReset.union(.extendedAdvertisingReport)
            if plan.periodicSync != nil {
                mask.formUnion([.periodicAdvertisingSyncEstablished, .periodicAdvertisingReport, .periodicAdvertisingSyncLost])
            }
            add(HCI.LESetEventMask(leEventMask: mask))
        }
        if let randomAddress = plan.randomAddress { add(HCI.LESetRandomAddress(randomAddress: randomAddress)) }
        if let extended = plan.extended {
            add(extended)
            add(HCI.LESetExtendedScanEnable(enable: true, filterDuplicates: .disabled))
            if let sync = plan.periodicSync { add(sync) }
        } else {
            add(plan.parameters)
            add(HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false))
        }
        return commands
    }

    /// Starts (or restarts, e.g. after a power cycle) the setup from HCI_Reset and returns
    /// the first command.
    public mutating func start() -> [H4.Packet] {
        isScanning = false
        failure = nil
        pending = setupCommands()
        return sendNext()
    }

    /// Handles one packet from the controller; returns the next command, if any. A periodic
    /// sync that failed to be established (e.g. no AUX_SYNC_IND within six intervals) or was
    /// lost is asked for again (§7.7.65.14, §7.7.65.16), as a receiver that wants the train does.
    public mutating func handle(_ packet: H4.Packet) -> [H4.Packet] {
        guard case let .event(eventPacket) = packet, let event = try? HCI.Event(decoding: eventPacket) else { return [] }
        switch event {
        case let .leMeta(.periodicAdvertisingSyncEstablished(done)) where done.status != .success:
            return syncAgain()
        case .leMeta(.periodicAdvertisingSyncLost):
            return syncAgain()
        default:
            break
        }
        guard let opcode = waitingFor else { return [] }
        let status: HCI.StatusCode
        switch event {
        case let .commandComplete(complete) where complete.opcode == opcode:
            status = complete.returnParameters.first.map { HCI.StatusCode(rawValue: $0) } ?? .success
        case let .commandStatus(answer) where answer.opcode == opcode:
            status = answer.status
        default:
            return []
        }
        waitingFor = nil
        guard status == .success else {
            pending = []
            failure = ScriptedHost.Failure(deviceName: plan.deviceName, opcode: opcode, status: status)
            return []
        }
        if opcode == HCI.LESetScanEnable.opcode || opcode == HCI.LESetExtendedScanEnable.opcode { isScanning = true }
        return sendNext()
    }

    /// LE Periodic Advertising Create Sync once more, after the commands under way.
    private mutating func syncAgain() -> [H4.Packet] {
        guard isScanning, failure == nil, let sync = plan.periodicSync, let packet = try? HCI.CommandPacket(sync) else { return [] }
        pending.append(packet)
        return waitingFor == nil ? sendNext() : []
    }

    private mutating func sendNext() -> [H4.Packet] {
        guard !pending.isEmpty else { return [] }
        let command = pending.removeFirst()
        waitingFor = command.opcode
        return [.command(command)]
    }
}

extension ScenarioDevice {
    /// The scripted scanner's plan for this device, or `nil` when it does not scan.
    public func scanningPlan() -> ScriptedScanner.Plan? {
        guard host == .scripted, let scanning else { return nil }
        let parameters = HCI.LESetScanParameters(
            leScanType: scanning.active ? .active : .passive,
            leScanInterval: ScenarioScanning.units(scanning.intervalMilliseconds),
            leScanWindow: ScenarioScanning.units(scanning.windowMilliseconds),
            ownAddressType: address.kind == .random ? .random : .public)
        var extended: HCI.LESetExtendedScanParameters?
        if let phys = scanning.extendedPHYs {
            // Each PHY with the file's interval and window; the controller takes them in turn.
            let each = HCI.LESetExtendedScanParameters.PHYParameters(
                scanType: parameters.leScanType, scanInterval: parameters.leScanInterval, scanWindow: parameters.leScanWindow)
            extended = HCI.LESetExtendedScanParameters(ownAddressType: parameters.ownAddressType,
                                                       le1M: phys.contains(.le1M) ? each : nil,
                                                       leCoded: phys.contains(.leCoded) ? each : nil)
        }
        return ScriptedScanner.Plan(deviceName: name, randomAddress: address.kind == .random ? address : nil,
                                    parameters: parameters, extended: extended)
    }
}

extension ScenarioDevice {
    /// Whether the device scans as its phone's system does rather than as the file says: a
    /// phone (`apps`) that observes beacons (`observe:`) with no `scan:` of its own. Its
    /// scan's duty follows the phone's rules and its apps' states (iOS research §9, rule 8),
    /// so the world installs no scanner for it; the scenario runner (BLEScenarios) starts
    /// one with ``BuiltScenario/startScanner(_:for:)`` and changes it as the duty changes.
    public var scansAsPhone: Bool { observing != nil && scanning == nil && !apps.isEmpty && host == .none }

    /// The scripted scanner's plan for this device listening `window` every `interval`
    /// (microseconds), actively or not: a phone's shared scan at one duty (LE Set Scan
    /// Parameters, Core 5.4, Vol 4, Part E, §7.8.10; the units are 0.625 ms).
    public func scanPlan(window: Int64, interval: Int64, active: Bool) -> ScriptedScanner.Plan {
        let parameters = HCI.LESetScanParameters(
            leScanType: active ? .active : .passive,
            leScanInterval: ScenarioScanning.units(Double(interval) / 1_000),
            leScanWindow: ScenarioScanning.units(Double(window) / 1_000),
            ownAddressType: address.kind == .random ? .random : .public)
        return ScriptedScanner.Plan(deviceName: name, randomAddress: address.kind == .random ? address : nil,
                                    parameters: parameters)
    }
}
