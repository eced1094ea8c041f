import BLEWire

// Advertising sets that use legacy PDUs (Core 5.4, Vol 4, Part E, §7.8.53 Table 7.2): the
// extended commands drive the legacy advertiser, as hosts that speak only the extended
// commands (BlueZ, Android) advertise ADV_IND and its kin.

extension Controller {
    /// The legacy-PDU set that holds the legacy advertiser, with its enable entry's limits.
    struct LegacyAdvertisingSetRun: Sendable {
        var handle: UInt8
        var endsAt: Microseconds?
        var maximumEvents: Int?
        /// Events the advertiser had started when it stopped (for a connection or a timeout).
        var eventsAtEnd: Int?
    }

    /// The legacy advertising type of Advertising_Event_Properties from Table 7.2, or `nil`
    /// when the value is not one of the five the table allows.
    static func legacyAdvertisingType(_ properties: HCI.AdvertisingEventProperties) -> HCI.LESetAdvertisingParameters.AdvertisingType? {
        switch properties.rawValue {
        case 0b0001_0011: return .connectableUndirected
        case 0b0001_0101: return .connectableDirectedLowDutyCycle
        case 0b0001_1101: return .connectableDirectedHighDutyCycle
        case 0b0001_0010: return .scannableUndirected
        case 0b0001_0000: return .nonConnectableUndirected
        default: return nil
        }
    }

    /// The legacy parameters a legacy-PDU set stands for.
    static func legacyParameters(_ parameters: HCI.LESetExtendedAdvertisingParameters) -> HCI.LESetAdvertisingParameters? {
        guard let type = legacyAdvertisingType(parameters.advertisingEventProperties) else { return nil }
        return HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: UInt16(clamping: parameters.primaryAdvertisingIntervalMin),
            advertisingIntervalMax: UInt16(clamping: parameters.primaryAdvertisingIntervalMax), advertisingType: type,
            ownAddressType: parameters.ownAddressType, peerAddress: parameters.peerAddress,
            advertisingChannelMap: parameters.primaryAdvertisingChannelMap, advertisingFilterPolicy: parameters.advertisingFilterPolicy)
    }

    /// Starts the legacy advertiser for a legacy-PDU set (checked first with
    /// ``legacySetStartStatus(at:)``).
    mutating func enableLegacySet(at index: Int, entry: HCI.LESetExtendedAdvertisingEnable.AdvertisingSet, ownAddress: BluetoothAddress) {
        let set = advertisingSets[index]
        guard let parameters = Controller.legacyParameters(set.parameters) else { return }
        advertiser = LegacyAdvertiser(
            parameters: parameters, ownAddress: ownAddress, advertisingData: set.data, scanResponseData: set.scanResponseData,
            txPowerDBm: configuration.txPowerDBm, now: now,
                supportsChannelSelection2: configuration.claimsChannelSelectionAlgorithm2)
        legacyAdvertisingSet = LegacyAdvertisingSetRun(
            handle: set.handle, endsAt: entry.duration == 0 ? nil : now + Microseconds(entry.duration) * 10_000,
            maximumEvents: entry.maxExtendedAdvertisingEvents == 0 ? nil : Int(entry.maxExtendedAdvertisingEvents))
        advertisingSets[index].runsLegacyPDUs = true
    }

    /// Why set `index` may not start its legacy advertiser, or `nil` if it may. One
    /// legacy-PDU set runs at a time (the controller has one legacy advertiser): another is
    /// refused with Memory Capacity Exceeded, as when resources run short; a connectable set
    /// needs room for a connection.
    func legacySetStartStatus(at index: Int) -> HCI.StatusCode? {
        let set = advertisingSets[index]
        if let running = legacyAdvertisingSet, running.handle != set.handle { return .memoryCapacityExceeded }
        let type = Controller.legacyAdvertisingType(set.parameters.advertisingEventProperties)
        if type != .nonConnectableUndirected, type != .scannableUndirected, connections.count >= configuration.maximumConnections {
            return .connectionLimitExceeded
        }
        return nil
    }

    /// Stops the legacy-PDU set's advertiser, with LE Advertising Set Terminated when it
    /// ended on its own (`status`), not when the host stopped it.
    mutating func stopLegacySet(status: HCI.StatusCode?, connectionHandle: UInt16 = 0, into outputs: inout [ControllerOutput]) {
        guard let running = legacyAdvertisingSet else { return }
        let events = running.eventsAtEnd ?? advertiser?.eventCount ?? 0
        advertiser = nil
        legacyAdvertisingSet = nil
        if let index = advertisingSetIndex(running.handle) { advertisingSets[index].runsLegacyPDUs = false }
        guard let status else { return }
        emit(.leMeta(.advertisingSetTerminated(HCI.LEAdvertisingSetTerminated(
            status: status, advertisingHandle: running.handle, connectionHandle: connectionHandle,
            numCompletedExtendedAdvertisingEvents: UInt8(clamping: events)))), into: &outputs)
    }

    /// The legacy-PDU set's duration and event limit.
    mutating func legacySetTimer(into outputs: inout [ControllerOutput]) {
        guard let running = legacyAdvertisingSet, let active = advertiser else { return }
        if let endsAt = running.endsAt, now >= endsAt {
            stopLegacySet(status: .advertisingTimeout, into: &outputs)
        } else if let maximum = running.maximumEvents, active.eventCount >= maximum, active.nextEventStart != nil {
            stopLegacySet(status: .limitReached, into: &outputs)
        }
    }
}
