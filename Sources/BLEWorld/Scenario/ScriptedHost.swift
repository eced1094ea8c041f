import BLEWire

/// A tiny host inside the world for a device that only advertises: it speaks real HCI to
/// its controller, as any host would over a transport, so scenario devices exercise the
/// same controller paths as the user's own host. A plain beacon (legacy non-connectable
/// advertising that nothing turns off) runs without it by default: a
/// ``BLEController/BeaconController`` started where this host's setup would end sends the
/// same packets (``ScenarioBeacons``).
///
/// It is a sans-IO state machine (DESIGN.md, "Sans-IO protocol cores"): ``start()`` and
/// ``handle(_:)`` return the packets to send. It sends one command at a time and waits for
/// its Command Complete (or Command Status) before the next (Core 5.4, Vol 4, Part E,
/// §4.4): HCI_Reset, HCI_Set_Event_Mask, HCI_LE_Set_Random_Address (random addresses),
/// HCI_LE_Set_Advertising_Parameters, HCI_LE_Set_Advertising_Data, HCI_LE_Set_Scan_Response_Data
/// (scannable types), HCI_LE_Set_Advertising_Enable. With an extended set
/// (``Plan/extended``) it sends HCI_LE_Set_Event_Mask, then
/// HCI_LE_Set_Extended_Advertising_Parameters [v2], HCI_LE_Set_Advertising_Set_Random_Address,
/// HCI_LE_Set_Extended_Advertising_Data in fragments of up to 251 octets (for a scannable
/// set HCI_LE_Set_Extended_Scan_Response_Data instead), for a periodic train
/// HCI_LE_Set_Periodic_Advertising_Parameters, _Data and _Enable (§7.8.61–§7.8.63), and
/// HCI_LE_Set_Extended_Advertising_Enable (§7.8.52–§7.8.56) instead. A command that fails
/// stops the sequence and is kept in ``failure``. After a connection ends it enables
/// advertising again, as a peripheral that wants to stay discoverable does.
public struct ScriptedHost: Sendable {
    /// What the host sets up.
    public struct Plan: Hashable, Sendable {
        /// The device's name, for logs.
        public var deviceName: String
        /// The random address to set, or `nil` to advertise with the public address.
        public var randomAddress: BluetoothAddress?
        /// The advertising parameters.
        public var parameters: HCI.LESetAdvertisingParameters
        /// The advertising data, at most 31 octets.
        public var advertisingData: [UInt8]
        /// The scan response data, or `nil` to send no LE Set Scan Response Data.
        public var scanResponseData: [UInt8]?
        /// The extended advertising set to use instead of the legacy commands, or `nil`;
        /// ``parameters`` then only says the interval and type a legacy host would have used.
        public var extended: HCI.LESetExtendedAdvertisingParametersV2?
        /// The periodic train of the extended set, or `nil` for none.
        public var periodic: Periodic?

        /// A plan with every field.
        public init(deviceName: String, randomAddress: BluetoothAddress?, parameters: HCI.LESetAdvertisingParameters,
                    advertisingData: [UInt8], scanResponseData: [UInt8]?, extended: HCI.LESetExtendedAdvertisingParametersV2? = nil,
                    periodic: Periodic? = nil) {
            self.deviceName = deviceName
            self.randomAddress = randomAddress
            self.parameters = parameters
            self.advertisingData = advertisingData
            self.scanResponseData = scanResponseData
            self.extended = extended
            self.periodic = periodic
        }
    }

    /// A periodic train to set up beside the extended set (Core 5.4, Vol 4, Part E, §7.8.61–§7.8.63).
    public struct Periodic: Hashable, Sendable {
        /// HCI_LE_Set_Periodic_Advertising_Parameters: the interval.
        public var parameters: HCI.LESetPeriodicAdvertisingParameters
        /// The periodic data, sent with HCI_LE_Set_Periodic_Advertising_Data in fragments.
        public var data: [UInt8]

        /// A train with every field.
        public init(parameters: HCI.LESetPeriodicAdvertisingParameters, data: [UInt8]) {
            self.parameters = parameters
            self.data = data
        }
    }

    /// The advertising handle of the one extended set a scripted host uses.
    public static let advertisingHandle: UInt8 = 0
    /// The most data one HCI_LE_Set_Extended_Advertising_Data carries (Core 5.4, Vol 4,
    /// Part E, §7.8.54: Advertising_Data_Length is at most 251).
    public static let extendedDataFragmentLength = 251

    /// A command the controller refused.
    public struct Failure: Hashable, Sendable, CustomStringConvertible {
        /// The device's name.
        public var deviceName: String
        /// The command that failed.
        public var opcode: HCI.Opcode
        /// The controller's status code.
        public var status: HCI.StatusCode

        /// A failure with every field.
        public init(deviceName: String, opcode: HCI.Opcode, status: HCI.StatusCode) {
            self.deviceName = deviceName
            self.opcode = opcode
            self.status = status
        }

        /// `device "tag": HCI command 0x2006 failed with status 0x12`.
        public var description: String {
            "device \"\(deviceName)\": HCI command \(opcode) failed with status \(status); its scripted host stopped"
        }
    }

    /// Where the host is.
    public enum Phase: Hashable, Sendable {
        /// Not started.
        case idle
        /// Waiting for the answer to a command.
        case waiting(HCI.Opcode)
        /// Set up and advertising.
        case advertising
        /// Set up, advertising disabled.
        case stopped
        /// A peer connected (the controller stopped advertising).
        case connected
        /// A command failed; nothing more is sent until ``start()``.
        case failed(Failure)
    }

    /// The plan; its advertising data changes with ``setAdvertisingData(_:)``.
    public private(set) var plan: Plan
    /// Where the host is.
    public private(set) var phase: Phase = .idle
    /// Whether advertising should be on once set up (``setAdvertisingEnabled(_:)``).
    public private(set) var wantsAdvertising = true

    private var pending: [HCI.CommandPacket] = []
    private var dataChangedWhileConnected = false

    /// A host that will carry out `plan`.
    public init(plan: Plan) { self.plan = plan }

    /// The last failure, if the host stopped on one.
    public var failure: Failure? {
        if case let .failed(failure) = phase { return failure }
        return nil
    }

    /// The setup commands in order, for `wantsAdvertising`.
    public func setupCommands() -> [HCI.CommandPacket] {
        var commands: [HCI.CommandPacket] = []
        func add<Command: HCICommand>(_ command: Command) {
            if let packet = try? HCI.CommandPacket(command) { commands.append(packet) }
        }
        add(HCI.Reset())
        add(HCI.SetEventMask(eventMask: [.disconnectionComplete, .encryptionChange, .hardwareError, .leMeta]))
        if let extended = plan.extended {
            // The connection of a connectable set is reported with LE Enhanced Connection
            // Complete and LE Advertising Set Terminated (§7.7.65.10, §7.7.65.18).
            add(HCI.LESetEventMask(leEventMask: HCI.LEEventMask.defaultAfterReset.union([.enhancedConnectionComplete, .advertisingSetTerminated])))
            add(extended)
            if let randomAddress = plan.randomAddress {
                add(HCI.LESetAdvertisingSetRandomAddress(advertisingHandle: Self.advertisingHandle, randomAddress: randomAddress))
            }
            if let scanResponse = plan.scanResponseData {
                // A scannable extended set holds no advertising data, only its scan response.
                commands += Self.fragments(of: scanResponse) { operation, fragment in
                    try? HCI.CommandPacket(HCI.LESetExtendedScanResponseData(
                        advertisingHandle: Self.advertisingHandle, operation: operation, scanResponseData: fragment))
                }
            } else {
                commands += dataCommands(plan.advertisingData)
            }
            if let periodic = plan.periodic {
                // The train first, so that the set's first AUX_ADV_IND already carries SyncInfo.
                add(periodic.parameters)
                if !periodic.data.isEmpty {
                    commands += Self.fragments(of: periodic.data) { operation, fragment in
                        try? HCI.CommandPacket(HCI.LESetPeriodicAdvertisingData(
                            advertisingHandle: Self.advertisingHandle, operation: operation, advertisingData: fragment))
                    }
                }
                add(HCI.LESetPeriodicAdvertisingEnable(enable: true, advertisingHandle: Self.advertisingHandle))
            }
            if wantsAdvertising { commands.append(enableCommand(true)) }
            return commands
        }
        if let randomAddress = plan.randomAddress { add(HCI.LESetRandomAddress(randomAddress: randomAddress)) }
        add(plan.parameters)
        add(HCI.LESetAdvertisingData(advertisingData: plan.advertisingData[...]))
        if let scanResponse = plan.scanResponseData { add(HCI.LESetScanResponseData(scanResponseData: scanResponse[...])) }
        if wantsAdvertising { add(HCI.LESetAdvertisingEnable(advertisingEnable: true)) }
        return commands
    }

    /// Starts (or restarts, e.g. after a power cycle) the setup sequence from HCI_Reset and
    /// returns the first command.
    public mutating func start() -> [H4.Packet] {
        dataChangedWhileConnected = false
        pending = setupCommands()
        return sendNext()
    }

    /// Turns advertising on or off; returns the command to send, if any now.
    public mutating func setAdvertisingEnabled(_ enabled: Bool) -> [H4.Packet] {
        wantsAdvertising = enabled
        switch phase {
        case .advertising where !enabled, .stopped where enabled:
            pending = [enableCommand(enabled)]
            return sendNext()
        case .waiting:
            // The end of the sequence follows the latest wish.
            let enable = enableOpcode
            pending.removeAll { $0.opcode == enable }
            pending.append(enableCommand(enabled))
            return []
        default:
            return []
        }
    }

    /// New advertising data (a rotating beacon's next frame); returns the command to send, if
    /// any now. A controller takes HCI_LE_Set_Advertising_Data while advertising and uses
    /// it from the next advertising event (Core 5.4, Vol 4, Part E, §7.8.7), so the data
    /// changes without a gap; a restart (``start()``) sets up the newest data.
    public mutating func setAdvertisingData(_ data: [UInt8]) -> [H4.Packet] {
        plan.advertisingData = data
        let commands = dataCommands(data)
        guard let command = commands.first else { return [] }
        switch phase {
        case .advertising, .stopped:
            pending = commands
            return sendNext()
        case .connected:
            // Sent when the connection ends, before advertising is enabled again.
            dataChangedWhileConnected = true
            return []
        case .waiting:
            // A setup or command under way: the newest data goes out after it.
            pending.removeAll { $0.opcode == command.opcode }
            pending += commands
            return []
        case .idle, .failed:
            return []
        }
    }

    /// Handles one packet from the controller; returns the next command, if any.
    public mutating func handle(_ packet: H4.Packet) -> [H4.Packet] {
        guard case let .event(eventPacket) = packet, let event = try? HCI.Event(decoding: eventPacket) else { return [] }
        switch (phase, event) {
        case let (.waiting(opcode), .commandComplete(complete)) where complete.opcode == opcode:
            let status = complete.returnParameters.first.map { HCI.StatusCode(rawValue: $0) } ?? .success
            return finished(opcode, status: status)
        case let (.waiting(opcode), .commandStatus(status)) where status.opcode == opcode:
            return finished(opcode, status: status.status)
        case (.advertising, .leMeta(.connectionComplete(let complete))) where complete.status == .success:
            phase = .connected
            return []
        case (.advertising, .leMeta(.enhancedConnectionComplete(let complete))) where complete.status == .success:
            phase = .connected
            return []
        case (.connected, .disconnectionComplete):
            let data = dataChangedWhileConnected ? dataCommands(plan.advertisingData) : []
            dataChangedWhileConnected = false
            pending = data + (wantsAdvertising ? [enableCommand(true)] : [])
            phase = .stopped
            return sendNext()
        default:
            return []
        }
    }

    /// The opcode that switches the plan's advertising on and off.
    private var enableOpcode: HCI.Opcode {
        plan.extended == nil ? HCI.LESetAdvertisingEnable.opcode : HCI.LESetExtendedAdvertisingEnable.opcode
    }

    private func enableCommand(_ enabled: Bool) -> HCI.CommandPacket {
        guard plan.extended != nil else {
            return HCI.CommandPacket(opcode: HCI.LESetAdvertisingEnable.opcode,
                                     parameters: HCI.LESetAdvertisingEnable(advertisingEnable: enabled).encoded()[...])
        }
        let command = HCI.LESetExtendedAdvertisingEnable(enable: enabled, sets: [.init(advertisingHandle: Self.advertisingHandle)])
        return HCI.CommandPacket(opcode: HCI.LESetExtendedAdvertisingEnable.opcode, parameters: command.encoded()[...])
    }

    /// The commands that give the controller `data`: one HCI_LE_Set_Advertising_Data, or for an
    /// extended set one HCI_LE_Set_Extended_Advertising_Data per 251 octets, marked first,
    /// intermediate and last fragment, or complete when one suffices (§7.8.54).
    private func dataCommands(_ data: [UInt8]) -> [HCI.CommandPacket] {
        guard plan.extended != nil else {
            return (try? HCI.CommandPacket(HCI.LESetAdvertisingData(advertisingData: data[...]))).map { [$0] } ?? []
        }
        return Self.fragments(of: data) { operation, fragment in
            try? HCI.CommandPacket(HCI.LESetExtendedAdvertisingData(
                advertisingHandle: Self.advertisingHandle, operation: operation, advertisingData: fragment))
        }
    }

    /// `data` cut into fragments of up to 251 octets, marked first, intermediate and last
    /// fragment, or complete when one suffices (§7.8.54, §7.8.55), each made a command by `command`.
    private static func fragments(of data: [UInt8],
                                  _ command: (HCI.AdvertisingDataOperation, ArraySlice<UInt8>) -> HCI.CommandPacket?) -> [HCI.CommandPacket] {
        let size = extendedDataFragmentLength
        let starts = Array(stride(from: 0, to: Swift.max(data.count, 1), by: size))
        return starts.enumerated().compactMap { index, start in
            let operation: HCI.AdvertisingDataOperation = starts.count == 1 ? .complete
                : index == 0 ? .firstFragment : index == starts.count - 1 ? .lastFragment : .intermediateFragment
            return command(operation, data[start ..< Swift.min(start + size, data.count)])
        }
    }

    private mutating func finished(_ opcode: HCI.Opcode, status: HCI.StatusCode) -> [H4.Packet] {
        guard status == .success else {
            pending = []
            phase = .failed(Failure(deviceName: plan.deviceName, opcode: opcode, status: status))
            return []
        }
        if opcode == enableOpcode {
            // The last enable sent decides the state, whatever comes after.
            phase = wantsAdvertising ? .advertising : .stopped
        }
        return sendNext()
    }

    private mutating func sendNext() -> [H4.Packet] {
        guard !pending.isEmpty else {
            if case .waiting = phase { phase = wantsAdvertising ? .advertising : .stopped }
            return []
        }
        let command = pending.removeFirst()
        phase = .waiting(command.opcode)
        return [.command(command)]
    }
}
