import BLEWire

// Extended advertising and scanning commands (Core 5.4, Vol 4, Part E, §7.8.52–§7.8.60,
// §7.8.64–§7.8.65) and the rule that keeps them apart from the legacy ones (§3.1.1).

extension Controller {
    /// The most advertising data one set holds (§7.8.57): the 1,650 octets the specification allows.
    public static let maximumAdvertisingDataLength = 1650
    /// How many advertising sets may exist at once (§7.8.58).
    public static let supportedAdvertisingSets = 8
    /// The highest Advertising_Handle (§7.8.53).
    static let highestAdvertisingHandle: UInt8 = 0xEF

    /// Which family of advertising, scanning and initiating commands the host chose since
    /// power-on or reset (§3.1.1 "Legacy and extended advertising"): once it used one, the
    /// other is refused with Command Disallowed.
    enum AdvertisingCommandFamily: Sendable { case legacy, extended }

    /// The family a command belongs to, `nil` for every other command. The two read
    /// commands of the extended family (§7.8.57, §7.8.58) choose nothing here: hosts read
    /// the limits at start-up and then advertise the legacy way.
    static func advertisingCommandFamily(of opcode: HCI.Opcode) -> AdvertisingCommandFamily? {
        switch opcode {
        case HCI.LESetAdvertisingParameters.opcode, HCI.LEReadAdvertisingPhysicalChannelTxPower.opcode,
             HCI.LESetAdvertisingData.opcode, HCI.LESetScanResponseData.opcode, HCI.LESetAdvertisingEnable.opcode,
             HCI.LESetScanParameters.opcode, HCI.LESetScanEnable.opcode, HCI.LECreateConnection.opcode:
            return .legacy
        case HCI.LESetAdvertisingSetRandomAddress.opcode, HCI.LESetExtendedAdvertisingParameters.opcode,
             HCI.LESetExtendedAdvertisingParametersV2.opcode, HCI.LESetExtendedAdvertisingData.opcode, HCI.LESetExtendedScanResponseData.opcode,
             HCI.LESetExtendedAdvertisingEnable.opcode, HCI.LERemoveAdvertisingSet.opcode, HCI.LEClearAdvertisingSets.opcode,
             HCI.LESetExtendedScanParameters.opcode, HCI.LESetExtendedScanEnable.opcode,
             HCI.LEExtendedCreateConnection.opcode, HCI.LESetPeriodicAdvertisingParameters.opcode,
             HCI.LESetPeriodicAdvertisingData.opcode, HCI.LESetPeriodicAdvertisingEnable.opcode,
             HCI.LEPeriodicAdvertisingCreateSync.opcode, HCI.LEPeriodicAdvertisingCreateSyncCancel.opcode,
             HCI.LEPeriodicAdvertisingTerminateSync.opcode:
            return .extended
        default:
            return nil
        }
    }

    /// Whether `opcode` may run given the family chosen so far; records the choice.
    mutating func admitCommandFamily(of opcode: HCI.Opcode) -> Bool {
        guard let family = Controller.advertisingCommandFamily(of: opcode) else { return true }
        if let chosen = advertisingCommandFamily { return chosen == family }
        advertisingCommandFamily = family
        return true
    }

    /// The index of set `handle`, if it exists.
    func advertisingSetIndex(_ handle: UInt8) -> Int? { advertisingSets.firstIndex { $0.handle == handle } }

    /// Extended advertising and scanning commands; returns the Command Complete return
    /// parameters, or `nil` if `command` is not one of them.
    mutating func handleExtendedAdvertisingCommand(_ command: any HCICommand, into outputs: inout [ControllerOutput]) -> [UInt8]? {
        switch command {
        case is HCI.LEReadMaximumAdvertisingDataLength:
            return HCI.LEReadMaximumAdvertisingDataLength.ReturnParameters(
                status: .success, maxAdvertisingDataLength: UInt16(Controller.maximumAdvertisingDataLength)).encoded()
        case is HCI.LEReadNumberOfSupportedAdvertisingSets:
            return HCI.LEReadNumberOfSupportedAdvertisingSets.ReturnParameters(
                status: .success, numSupportedAdvertisingSets: UInt8(Controller.supportedAdvertisingSets)).encoded()
        case let command as HCI.LESetAdvertisingSetRandomAddress:
            guard let index = advertisingSetIndex(command.advertisingHandle) else { return [HCI.StatusCode.unknownAdvertisingIdentifier.rawValue] }
            // The new address takes effect when the set is next enabled (§7.8.52).
            advertisingSets[index].randomAddress = command.randomAddress
            return [HCI.StatusCode.success.rawValue]
        case let command as HCI.LESetExtendedAdvertisingParameters:
            let status = setExtendedAdvertisingParameters(command)
            return HCI.LESetExtendedAdvertisingParameters.ReturnParameters(status: status, selectedTxPower: txPowerLevel).encoded()
        case let command as HCI.LESetExtendedAdvertisingParametersV2:
            // [v2]: [v1]'s parameters and the coding of LE Coded on each channel kind.
            let status = setExtendedAdvertisingParameters(
                command.parameters, primaryCoding: LECoding(command.primaryAdvertisingPHYOptions),
                secondaryCoding: LECoding(command.secondaryAdvertisingPHYOptions))
            return HCI.LESetExtendedAdvertisingParametersV2.ReturnParameters(status: status, selectedTxPower: txPowerLevel).encoded()
        case let command as HCI.LESetExtendedAdvertisingData:
            return [setExtendedAdvertisingData(command).rawValue]
        case let command as HCI.LESetExtendedScanResponseData:
            return [setExtendedScanResponseData(command).rawValue]
        case let command as HCI.LESetExtendedAdvertisingEnable:
            return [setExtendedAdvertisingEnable(command, into: &outputs).rawValue]
        case let command as HCI.LERemoveAdvertisingSet:
            guard let index = advertisingSetIndex(command.advertisingHandle) else { return [HCI.StatusCode.unknownAdvertisingIdentifier.rawValue] }
            // A set sending extended or periodic advertising stays (§7.8.59).
            if advertisingSets[index].isEnabled || advertisingSets[index].periodicEnable.enabled {
                return [HCI.StatusCode.commandDisallowed.rawValue]
            }
            advertisingSets.remove(at: index)
            return [HCI.StatusCode.success.rawValue]
        case is HCI.LEClearAdvertisingSets:
            if advertisingSets.contains(where: { $0.isEnabled || $0.periodicEnable.enabled }) {
                return [HCI.StatusCode.commandDisallowed.rawValue]
            }
            advertisingSets.removeAll()
            return [HCI.StatusCode.success.rawValue]
        case let command as HCI.LESetExtendedScanParameters:
            return [setExtendedScanParameters(command).rawValue]
        case let command as HCI.LESetExtendedScanEnable:
            return [setExtendedScanEnable(command).rawValue]
        case let command as HCI.LEExtendedCreateConnection:
            // Answered with Command Status; nothing more to send here.
            extendedCreateConnection(command, into: &outputs)
            return nil
        default:
            return handlePeriodicAdvertisingCommand(command) ?? handlePeriodicSyncCommand(command, into: &outputs)
        }
    }

    /// LE Set Extended Advertising Parameters (§7.8.53). Legacy PDUs of Table 7.2 and
    /// extended PDUs that are non-connectable and non-scannable, or connectable and
    /// non-scannable (``extendedPropertiesRefusal(_:)``), are what this controller sends; any
    /// other event type, and the LE Coded PHY on a controller without the feature, are refused
    /// as the specification says of unsupported values. The codings are [v2]'s
    /// choice for LE Coded (S=8 from [v1]).
    private mutating func setExtendedAdvertisingParameters(
        _ command: HCI.LESetExtendedAdvertisingParameters, primaryCoding: LECoding = .s8, secondaryCoding: LECoding = .s8
    ) -> HCI.StatusCode {
        guard command.advertisingHandle <= Controller.highestAdvertisingHandle else { return .invalidHCICommandParameters }
        let existing = advertisingSetIndex(command.advertisingHandle)
        if let existing, advertisingSets[existing].isEnabled { return .commandDisallowed }
        let properties = command.advertisingEventProperties
        if properties.contains(.legacy) {
            // Table 7.2; data already in the set must suit the type and fit a legacy PDU.
            guard let type = Controller.legacyAdvertisingType(properties) else { return .invalidHCICommandParameters }
            let data = existing.map { advertisingSets[$0].data } ?? []
            let takesData = type != .connectableDirectedLowDutyCycle && type != .connectableDirectedHighDutyCycle
            guard data.count <= LL.AdvertisingPDU.maximumLegacyDataLength, takesData || data.isEmpty else {
                return .invalidHCICommandParameters
            }
        } else if let refusal = Controller.extendedPropertiesRefusal(properties) {
            return refusal
        } else if properties.contains(.connectable), let existing,
                  advertisingSets[existing].data.count > Controller.maximumConnectableDataLength(properties) {
            return .packetTooLong
        } else if properties.contains(.scannable), let existing, !advertisingSets[existing].data.isEmpty {
            // A scannable extended set carries no advertising data (§7.8.53).
            return .invalidHCICommandParameters
        }
        let highDutyCycle = Controller.legacyAdvertisingType(properties) == .connectableDirectedHighDutyCycle
        guard highDutyCycle || command.primaryAdvertisingIntervalMin >= 0x20 && command.primaryAdvertisingIntervalMin <= command.primaryAdvertisingIntervalMax,
              !command.primaryAdvertisingChannelMap.intersection(.all).isEmpty, command.advertisingSID <= 0x0F
        else { return .invalidHCICommandParameters }
        // Primary: LE 1M or LE Coded (0x02 is reserved there); secondary: any. Coded needs the
        // LE Coded PHY feature; a PHY the controller lacks, or a reserved one, is Unsupported
        // Feature or Parameter Value (§7.8.53). Legacy PDUs go on LE 1M only.
        let codedAsked = command.primaryAdvertisingPHY == .leCoded || command.secondaryAdvertisingPHY == .leCoded
        guard command.primaryAdvertisingPHY != .le2M, !codedAsked || reportedLEFeatures.contains(.leCodedPHY) else {
            return .unsupportedFeatureOrParameterValue
        }
        if properties.contains(.legacy), command.primaryAdvertisingPHY != .le1M { return .invalidHCICommandParameters }
        if let existing {
            advertisingSets[existing].parameters = command
            advertisingSets[existing].primaryCoding = primaryCoding
            advertisingSets[existing].secondaryCoding = secondaryCoding
            return .success
        }
        guard advertisingSets.count < Controller.supportedAdvertisingSets else { return .memoryCapacityExceeded }
        advertisingSets.append(AdvertisingSet(
            handle: command.advertisingHandle, parameters: command, primaryCoding: primaryCoding, secondaryCoding: secondaryCoding))
        advertisingSets.sort { $0.handle < $1.handle }
        return .success
    }

    /// LE Set Extended Advertising Data (§7.8.54): fragments joined up to the set's capacity;
    /// a connectable set's must fit its one AUX_ADV_IND, else Packet Too Long (0x45,
    /// ``maximumConnectableDataLength(_:)``). For other sets Packet Too Long is not returned:
    /// a 1,650-octet chain on LE 1M lasts 17.1 ms,
    /// less than the shortest primary interval (20 ms). On LE Coded S=8 the same chain lasts
    /// about 120 ms; such a set's events then follow one another at the chain's pace (an event
    /// starts once the one before has ended), longer apart than its interval.
    private mutating func setExtendedAdvertisingData(_ command: HCI.LESetExtendedAdvertisingData) -> HCI.StatusCode {
        guard let index = advertisingSetIndex(command.advertisingHandle) else { return .unknownAdvertisingIdentifier }
        var set = advertisingSets[index]
        let fragment = Array(command.advertisingData)
        if set.usesLegacyPDUs {
            // One complete legacy PDU's worth, for the types that carry data (§7.8.54).
            let type = Controller.legacyAdvertisingType(set.parameters.advertisingEventProperties)
            guard command.operation == .complete, fragment.count <= LL.AdvertisingPDU.maximumLegacyDataLength,
                  type != .connectableDirectedLowDutyCycle, type != .connectableDirectedHighDutyCycle
            else { return .invalidHCICommandParameters }
            advertisingSets[index].data = fragment
            if set.runsLegacyPDUs { advertiser?.update(advertisingData: fragment) }
            return .success
        }
        // A scannable extended set's data is its scan response; it has no advertising data (§7.8.54).
        if Controller.isScannableExtended(set), !fragment.isEmpty { return .invalidHCICommandParameters }
        switch command.operation {
        case .unchangedData:
            // Only a new DID for the data the enabled set already sends.
            guard set.isEnabled, !set.data.isEmpty, !set.dataIsPartial, fragment.isEmpty else { return .invalidHCICommandParameters }
            set.dataID = (set.dataID &+ 1) & 0x0FFF
            advertisingSets[index] = set
            return .success
        case .firstFragment, .intermediateFragment, .lastFragment:
            if set.isEnabled { return .commandDisallowed }
            // A middle or last fragment needs a first one before it.
            if command.operation != .firstFragment, !set.dataIsPartial { return .invalidHCICommandParameters }
        case .complete:
            break
        }
        let starts = command.operation == .firstFragment || command.operation == .complete
        let combined = (starts ? [] : set.data) + fragment
        let connectableLimit = Controller.isConnectableExtended(set)
            ? Controller.maximumConnectableDataLength(set.parameters.advertisingEventProperties) : nil
        guard combined.count <= Controller.maximumAdvertisingDataLength, combined.count <= connectableLimit ?? combined.count else {
            set.data = []
            set.dataIsPartial = false
            advertisingSets[index] = set
            return combined.count > Controller.maximumAdvertisingDataLength ? .memoryCapacityExceeded : .packetTooLong
        }
        set.data = combined
        set.dataIsPartial = command.operation == .firstFragment || command.operation == .intermediateFragment
        if !set.dataIsPartial { set.dataID = (set.dataID &+ 1) & 0x0FFF }
        advertisingSets[index] = set
        return .success
    }

    /// LE Set Extended Scan Response Data (§7.8.55): a legacy scannable set takes one
    /// complete legacy PDU's worth, a scannable extended set up to 1,650 octets in fragments
    /// (``setScannableSetScanResponse(_:at:)``); for a non-scannable set only discarding
    /// (empty data) is allowed.
    private mutating func setExtendedScanResponseData(_ command: HCI.LESetExtendedScanResponseData) -> HCI.StatusCode {
        guard let index = advertisingSetIndex(command.advertisingHandle) else { return .unknownAdvertisingIdentifier }
        let set = advertisingSets[index]
        let data = Array(command.scanResponseData)
        let type = Controller.legacyAdvertisingType(set.parameters.advertisingEventProperties)
        if set.usesLegacyPDUs, type == .connectableUndirected || type == .scannableUndirected {
            guard command.operation == .complete, data.count <= LL.AdvertisingPDU.maximumLegacyDataLength else {
                return .invalidHCICommandParameters
            }
            advertisingSets[index].scanResponseData = data
            if set.runsLegacyPDUs { advertiser?.update(scanResponseData: data) }
            return .success
        }
        if Controller.isScannableExtended(set) { return setScannableSetScanResponse(command, at: index) }
        let discards = data.isEmpty && (command.operation == .complete || command.operation == .firstFragment)
        return discards ? .success : .invalidHCICommandParameters
    }

    /// LE Set Extended Advertising Enable (§7.8.56): every entry is checked before any set starts or stops.
    private mutating func setExtendedAdvertisingEnable(
        _ command: HCI.LESetExtendedAdvertisingEnable, into outputs: inout [ControllerOutput]
    ) -> HCI.StatusCode {
        if !command.enable, command.sets.isEmpty {
            for index in advertisingSets.indices { advertisingSets[index].advertiser = nil }
            stopLegacySet(status: nil, into: &outputs)
            return .success
        }
        guard !command.sets.isEmpty, Set(command.sets.map(\.advertisingHandle)).count == command.sets.count else {
            return .invalidHCICommandParameters
        }
        var indices: [Int] = []
        for entry in command.sets {
            guard let index = advertisingSetIndex(entry.advertisingHandle) else { return .unknownAdvertisingIdentifier }
            indices.append(index)
        }
        guard command.enable else {
            for index in indices {
                advertisingSets[index].advertiser = nil
                if advertisingSets[index].runsLegacyPDUs { stopLegacySet(status: nil, into: &outputs) }
            }
            return .success
        }
        var addresses: [BluetoothAddress] = []
        for index in indices {
            let set = advertisingSets[index]
            if set.dataIsPartial || set.scanResponseIsPartial { return .commandDisallowed }
            // A scannable extended set needs scan response data to answer with (§7.8.56).
            if Controller.isScannableExtended(set), set.scanResponseData.isEmpty { return .commandDisallowed }
            guard let address = advertisingAddress(of: set) else { return .invalidHCICommandParameters }
            if set.usesLegacyPDUs, let refusal = legacySetStartStatus(at: index) { return refusal }
            // A connectable set needs room for the connection it may make.
            if Controller.isConnectableExtended(set), connections.count >= configuration.maximumConnections {
                return .connectionLimitExceeded
            }
            addresses.append(address)
        }
        // One legacy advertiser: two legacy-PDU sets cannot run at once.
        if indices.filter({ advertisingSets[$0].usesLegacyPDUs }).count > 1 { return .memoryCapacityExceeded }
        for (entry, (index, address)) in zip(command.sets, zip(indices, addresses)) {
            if advertisingSets[index].usesLegacyPDUs {
                enableLegacySet(at: index, entry: entry, ownAddress: address)
                continue
            }
            advertisingSets[index].advertiser = ExtendedAdvertiser(
                handle: entry.advertisingHandle, parameters: advertisingSets[index].parameters,
                codings: (advertisingSets[index].primaryCoding, advertisingSets[index].secondaryCoding), ownAddress: address,
                duration: entry.duration, maximumEvents: entry.maxExtendedAdvertisingEvents,
                txPowerDBm: configuration.txPowerDBm, now: now)
            startPeriodicTrainIfReady(at: index)
        }
        return .success
    }

    /// The timers of the advertising sets and the extended scanner.
    mutating func extendedAdvertisingTimer(into outputs: inout [ControllerOutput]) {
        legacySetTimer(into: &outputs)
        periodicAdvertisingTimer(into: &outputs)
        periodicSyncTimer(into: &outputs)
        for index in advertisingSets.indices {
            guard var active = advertisingSets[index].advertiser, active.nextDeadline <= now else { continue }
            // The sets take the radio in turn: one whose event is due waits for another's to end.
            var othersBusyUntil = advertisingSets.indices.compactMap { other -> Microseconds? in
                guard other != index, let busy = advertisingSets[other].advertiser?.busyUntil, busy > now else { return nil }
                return busy
            }.max()
            // The legacy advertiser in an event (a legacy-PDU set's) finishes it first.
            if let legacy = advertiser, legacy.nextEventStart == nil, legacy.nextDeadline > now {
                othersBusyUntil = max(othersBusyUntil ?? 0, legacy.nextDeadline)
            }
            if let othersBusyUntil, active.busyUntil == nil {
                active.postpone(until: othersBusyUntil)
                advertisingSets[index].advertiser = active
                if active.nextDeadline > now { continue }
            }
            let set = advertisingSets[index]
            let result = active.timer(
                at: now, data: set.data, dataID: set.dataID, scanResponse: set.scanResponseData,
                radioFreeUntil: higherPriorityStart(than: .advertising), periodic: set.periodicAdvertiser, random: &random)
            for transmission in result.transmissions { outputs.append(.transmit(transmission)) }
            if let ending = result.ending {
                advertisingSets[index].advertiser = nil
                emit(.leMeta(.advertisingSetTerminated(HCI.LEAdvertisingSetTerminated(
                    status: ending == .timeout ? .advertisingTimeout : .limitReached, advertisingHandle: set.handle,
                    connectionHandle: 0, numCompletedExtendedAdvertisingEvents: UInt8(clamping: active.completedEvents)))),
                     into: &outputs)
            } else {
                advertisingSets[index].advertiser = active
            }
        }
        if var active = extendedScanner, active.nextDeadline(after: now) <= now {
            if active.isOver(at: now) {
                extendedScanner = nil
                emit(.leMeta(.scanTimeout(HCI.LEScanTimeout())), into: &outputs)
                return
            }
            let effects = active.timer(at: now)
            extendedScanner = active
            apply(resolvingExtendedReports(effects), into: &outputs)
        }
    }

    /// The earliest deadline of the advertising sets and the extended scanner.
    var extendedAdvertisingDeadline: Microseconds? {
        var earliest = Self.earlier(extendedScanner?.nextDeadline(after: now), legacyAdvertisingSet?.endsAt)
        earliest = Self.earlier(earliest, periodicAdvertisingDeadline)
        earliest = Self.earlier(earliest, periodicSyncDeadline)
        for set in advertisingSets {
            earliest = Self.earlier(earliest, set.advertiser?.nextDeadline)
        }
        return earliest
    }
}
