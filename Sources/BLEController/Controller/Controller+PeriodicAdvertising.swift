import BLEWire

// Periodic advertising of an extended set (Core 5.4, Vol 4, Part E, §7.8.61–§7.8.63; Vol 6,
// Part B, §4.4.2.12): the train's parameters, data and enable, and its timer.

extension Controller {
    /// The longest periodic interval this controller takes, in units of 1.25 ms (4.8 s): the
    /// farthest a SyncInfo offset reaches with the 300 µs unit and Offset Adjust is 4.91 s
    /// (Vol 6, Part B, §2.3.4.6), and an AUX_ADV_IND may come up to one interval before the
    /// AUX_SYNC_IND it points to.
    static let longestPeriodicIntervalUnits: UInt16 = 0x0F00
    /// The shortest periodic interval the specification allows, 7.5 ms (§7.8.61).
    static let shortestPeriodicIntervalUnits: UInt16 = 0x0006

    /// Periodic advertising commands; returns the Command Complete return parameters, or
    /// `nil` if `command` is not one of them.
    mutating func handlePeriodicAdvertisingCommand(_ command: any HCICommand) -> [UInt8]? {
        switch command {
        case let command as HCI.LESetPeriodicAdvertisingParameters:
            return [setPeriodicAdvertisingParameters(command).rawValue]
        case let command as HCI.LESetPeriodicAdvertisingData:
            return [setPeriodicAdvertisingData(command).rawValue]
        case let command as HCI.LESetPeriodicAdvertisingEnable:
            return [setPeriodicAdvertisingEnable(command).rawValue]
        default:
            return nil
        }
    }

    /// Whether a set may carry a periodic train: extended PDUs, neither connectable nor
    /// scannable nor anonymous (§7.8.61).
    static func takesPeriodicAdvertising(_ set: AdvertisingSet) -> Bool {
        set.parameters.advertisingEventProperties.intersection([.legacy, .connectable, .scannable, .anonymous]).isEmpty
    }

    /// The airtime of set `set`'s periodic event with `dataLength` octets.
    private static func periodicEventDuration(_ set: AdvertisingSet, dataLength: Int, includesDataInfo: Bool) -> Microseconds {
        PeriodicAdvertiser.eventDuration(
            dataLength: dataLength, includesDataInfo: includesDataInfo,
            includesTxPower: (set.periodicParameters?.periodicAdvertisingProperties ?? 0) & 0x40 != 0,
            phy: RadioPHY(set.parameters.secondaryAdvertisingPHY, coding: set.secondaryCoding))
    }

    /// Whether `dataLength` octets of periodic data fit one event of `intervalUnits`.
    private static func periodicDataFits(_ set: AdvertisingSet, dataLength: Int, intervalUnits: UInt16) -> Bool {
        // Counted with the ADI, which the host may ask for when it enables the train.
        periodicEventDuration(set, dataLength: dataLength, includesDataInfo: true) < Microseconds(intervalUnits) * LinkTiming.unit1250
    }

    /// LE Set Periodic Advertising Parameters (§7.8.61). The train uses the minimum interval.
    private mutating func setPeriodicAdvertisingParameters(_ command: HCI.LESetPeriodicAdvertisingParameters) -> HCI.StatusCode {
        guard let index = advertisingSetIndex(command.advertisingHandle) else { return .unknownAdvertisingIdentifier }
        let set = advertisingSets[index]
        guard Controller.takesPeriodicAdvertising(set),
              command.periodicAdvertisingIntervalMin >= Controller.shortestPeriodicIntervalUnits,
              command.periodicAdvertisingIntervalMin <= command.periodicAdvertisingIntervalMax
        else { return .invalidHCICommandParameters }
        if set.periodicEnable.enabled { return .commandDisallowed }
        guard command.periodicAdvertisingIntervalMin <= Controller.longestPeriodicIntervalUnits else {
            return .unsupportedFeatureOrParameterValue
        }
        guard Controller.periodicDataFits(set, dataLength: set.periodicData.count, intervalUnits: command.periodicAdvertisingIntervalMin) else {
            return .packetTooLong
        }
        advertisingSets[index].periodicParameters = command
        return .success
    }

    /// LE Set Periodic Advertising Data (§7.8.62): fragments joined up to 1,650 octets; data
    /// that one event cannot carry within the interval is Packet Too Long (0x45).
    private mutating func setPeriodicAdvertisingData(_ command: HCI.LESetPeriodicAdvertisingData) -> HCI.StatusCode {
        guard let index = advertisingSetIndex(command.advertisingHandle) else { return .unknownAdvertisingIdentifier }
        var set = advertisingSets[index]
        guard Controller.takesPeriodicAdvertising(set) else { return .invalidHCICommandParameters }
        let fragment = Array(command.advertisingData)
        switch command.operation {
        case .unchangedData:
            guard set.periodicEnable.enabled, !set.periodicDataIsPartial, fragment.isEmpty else { return .invalidHCICommandParameters }
            advertisingSets[index].periodicDataID = (set.periodicDataID &+ 1) & 0x0FFF
            return .success
        case .firstFragment, .intermediateFragment, .lastFragment:
            if set.periodicEnable.enabled { return .commandDisallowed }
            if fragment.isEmpty { return .invalidHCICommandParameters }
            if command.operation != .firstFragment, !set.periodicDataIsPartial { return .invalidHCICommandParameters }
        case .complete:
            break
        }
        let starts = command.operation == .firstFragment || command.operation == .complete
        let combined = (starts ? [] : set.periodicData) + fragment
        guard combined.count <= Controller.maximumAdvertisingDataLength else {
            set.periodicData = []
            set.periodicDataIsPartial = false
            advertisingSets[index] = set
            return .memoryCapacityExceeded
        }
        let intervalUnits = set.periodicParameters?.periodicAdvertisingIntervalMin ?? Controller.longestPeriodicIntervalUnits
        guard Controller.periodicDataFits(set, dataLength: combined.count, intervalUnits: intervalUnits) else { return .packetTooLong }
        set.periodicData = combined
        set.periodicDataIsPartial = command.operation == .firstFragment || command.operation == .intermediateFragment
        if !set.periodicDataIsPartial { set.periodicDataID = (set.periodicDataID &+ 1) & 0x0FFF }
        advertisingSets[index] = set
        return .success
    }

    /// LE Set Periodic Advertising Enable (§7.8.63): the train starts once the set's extended
    /// advertising is enabled too; disabling stops it. Enabling needs the parameters and
    /// complete data (Command Disallowed otherwise).
    private mutating func setPeriodicAdvertisingEnable(_ command: HCI.LESetPeriodicAdvertisingEnable) -> HCI.StatusCode {
        guard let index = advertisingSetIndex(command.advertisingHandle) else { return .unknownAdvertisingIdentifier }
        guard command.enable else {
            advertisingSets[index].periodicEnable = (false, false)
            advertisingSets[index].periodicAdvertiser = nil
            return .success
        }
        let set = advertisingSets[index]
        guard set.periodicParameters != nil, !set.periodicDataIsPartial, Controller.takesPeriodicAdvertising(set) else {
            return .commandDisallowed
        }
        // Enabling again only changes whether the ADI is included, from the next start.
        advertisingSets[index].periodicEnable = (true, command.includeADI)
        startPeriodicTrainIfReady(at: index)
        return .success
    }

    /// Starts set `index`'s train when the host enabled it and the set's extended
    /// advertising is on; its first AUX_SYNC_IND goes one periodic interval from now.
    mutating func startPeriodicTrainIfReady(at index: Int) {
        let set = advertisingSets[index]
        guard set.periodicEnable.enabled, set.periodicAdvertiser == nil, set.advertiser != nil,
              let parameters = set.periodicParameters else { return }
        let units = parameters.periodicAdvertisingIntervalMin
        advertisingSets[index].periodicAdvertiser = PeriodicAdvertiser(
            handle: set.handle, setID: set.parameters.advertisingSID, intervalUnits: units,
            phy: RadioPHY(set.parameters.secondaryAdvertisingPHY, coding: set.secondaryCoding),
            includesDataInfo: set.periodicEnable.includesDataInfo,
            advertisedTxPower: parameters.periodicAdvertisingProperties & 0x40 != 0 ? txPowerLevel : nil,
            txPowerDBm: configuration.txPowerDBm, start: now + Microseconds(units) * LinkTiming.unit1250, random: &random)
    }

    /// The timers of the periodic trains.
    mutating func periodicAdvertisingTimer(into outputs: inout [ControllerOutput]) {
        for index in advertisingSets.indices {
            guard var train = advertisingSets[index].periodicAdvertiser, train.nextEvent <= now else { continue }
            let set = advertisingSets[index]
            for transmission in train.timer(at: now, data: set.periodicData, dataID: set.periodicDataID, random: &random) {
                outputs.append(.transmit(transmission))
            }
            advertisingSets[index].periodicAdvertiser = train
        }
    }

    /// The earliest next AUX_SYNC_IND of the periodic trains.
    var periodicAdvertisingDeadline: Microseconds? {
        advertisingSets.compactMap { $0.periodicAdvertiser?.nextEvent }.min()
    }
}
