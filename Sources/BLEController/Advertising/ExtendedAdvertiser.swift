import BLEWire

/// One enabled extended advertising set on the air (Core 5.4, Vol 6, Part B, §4.4.2):
/// events of ADV_EXT_IND on the primary channels, an AUX_ADV_IND on a secondary channel and,
/// for a non-connectable set, AUX_CHAIN_INDs for data that does not fit, every PDU placed
/// exactly where its pointer says. A connectable set (AdvMode connectable, undirected or
/// directed with TargetA) listens T_IFS after its AUX_ADV_IND for an AUX_CONNECT_REQ
/// (ExtendedAdvertiser+Connecting.swift). Events repeat every primary advertising
/// interval plus advDelay (0–10 ms) until the duration or the event limit ends them.
///
/// The primary PDUs go on LE 1M or LE Coded, the auxiliary ones on LE 1M, 2M or Coded, as
/// the set's parameters say, with the coding the host chose for each with LE Set Extended
/// Advertising Parameters [v2]'s PHY options; S=8, the coding of the longest reach, when it
/// did not (with [v1], which has no PHY options, or with no preference).
///
/// An event is planned whole when it starts, from the set's data at that moment, and its
/// packets are handed to the air at once with their start times.
struct ExtendedAdvertiser: Sendable {
    /// Why a set stopped on its own.
    enum Ending: Equatable, Sendable {
        /// Its duration ran out: Advertising Timeout (0x3C).
        case timeout
        /// It sent its maximum number of events: Limit Reached (0x43).
        case limitReached
    }

    let handle: UInt8
    /// The address its PDUs carry; a private one is renewed every RPA_Timeout
    /// (Controller+ExtendedPrivacy.swift).
    var ownAddress: BluetoothAddress
    let setID: UInt8
    let primaryChannels: [UInt8]
    /// The PHY of the ADV_EXT_INDs.
    let primaryPHY: RadioPHY
    /// The PHY of the AUX_ADV_IND and AUX_CHAIN_INDs.
    let secondaryPHY: RadioPHY
    let interval: Microseconds
    /// The TxPower field's value, when the host asked for it in the extended header.
    let advertisedTxPower: Int8?
    let txPowerDBm: Double
    /// When the duration runs out, if the host gave one.
    let endsAt: Microseconds?
    /// The most events to send, if the host gave a limit.
    let maximumEvents: Int?
    /// Whether the set is connectable (Advertising_Event_Properties bit 0).
    let isConnectable: Bool
    /// Whether the set is scannable (bit 1): its AUX_ADV_IND carries no data and AUX_SCAN_REQ
    /// gets its scan response (ExtendedAdvertiser+Scanning.swift).
    let isScannable: Bool
    /// TargetA of a directed connectable set (bit 2): the only initiator it accepts.
    let targetAddress: BluetoothAddress?
    /// Advertising_Filter_Policy, for the connect requests of an undirected connectable set.
    let filterPolicy: HCI.AdvertisingFilterPolicy
    /// Where an AUX_CONNECT_REQ (connectable set) or AUX_SCAN_REQ (scannable set) may start,
    /// in the event under way.
    var connectRequestWindow: ReceiverWindow?
    /// AUX_CONNECT_REQs addressed to this set and refused for LLData out of range.
    var refusedConnectRequests = 0
    private(set) var nextEvent: Microseconds
    /// The end of the event under way: the set holds the radio until then.
    private(set) var busyUntil: Microseconds?
    /// Events sent.
    private(set) var completedEvents = 0

    /// Starts advertising at `now` with the set's parameters and the enable entry's limits.
    init(
        handle: UInt8, parameters: HCI.LESetExtendedAdvertisingParameters, codings: (primary: LECoding, secondary: LECoding) = (.s8, .s8),
        ownAddress: BluetoothAddress,
        duration: UInt16, maximumEvents: UInt8, txPowerDBm: Double, now: Microseconds
    ) {
        self.handle = handle
        self.ownAddress = ownAddress
        setID = parameters.advertisingSID
        let map = parameters.primaryAdvertisingChannelMap
        primaryChannels = [(HCI.AdvertisingChannelMap.channel37, UInt8(37)), (.channel38, 38), (.channel39, 39)]
            .filter { map.contains($0.0) }.map(\.1)
        primaryPHY = parameters.primaryAdvertisingPHY == .leCoded ? .leCoded(codings.primary) : .le1M
        secondaryPHY = RadioPHY(parameters.secondaryAdvertisingPHY, coding: codings.secondary)
        interval = Microseconds(parameters.primaryAdvertisingIntervalMin) * LinkTiming.unit625
        advertisedTxPower = parameters.advertisingEventProperties.contains(.includeTxPower)
            ? Int8(clamping: Int(txPowerDBm.rounded())) : nil
        self.txPowerDBm = txPowerDBm
        endsAt = duration == 0 ? nil : now + Microseconds(duration) * 10_000
        self.maximumEvents = maximumEvents == 0 ? nil : Int(maximumEvents)
        let properties = parameters.advertisingEventProperties
        isConnectable = properties.contains(.connectable)
        isScannable = properties.contains(.scannable)
        targetAddress = isConnectable && properties.contains(.directed)
            ? parameters.peerAddress : nil
        filterPolicy = parameters.advertisingFilterPolicy
        nextEvent = now
    }

    /// When the advertiser next needs the timer.
    var nextDeadline: Microseconds {
        let next = busyUntil ?? nextEvent
        return endsAt.map { min($0, next) } ?? next
    }

    /// Moves an event that is due to `time`, when another set holds the radio until then.
    mutating func postpone(until time: Microseconds) {
        nextEvent = max(nextEvent, time)
    }

    /// What the advertiser wants of the receiver: nothing to listen to while it sends.
    func claim(at now: Microseconds) -> RadioClaim {
        if let busyUntil, now < busyUntil { return .busy(connectRequestWindow) }
        return .none
    }

    /// The timer. Starts an event when one is due and the radio is free long enough (an
    /// event that would not end before `radioFreeUntil` is skipped), ends the one under way,
    /// and says when the set is over.
    mutating func timer(
        at now: Microseconds, data: [UInt8], dataID: UInt16, scanResponse: [UInt8] = [], radioFreeUntil: Microseconds?,
        periodic: PeriodicAdvertiser? = nil, random: inout ControllerRandom
    ) -> (transmissions: [RadioTransmission], ending: Ending?) {
        if let busy = busyUntil {
            guard now >= busy else { return ([], nil) }
            busyUntil = nil
            connectRequestWindow = nil
            if let maximumEvents, completedEvents >= maximumEvents { return ([], .limitReached) }
        }
        if let endsAt, now >= endsAt { return ([], .timeout) }
        guard now >= nextEvent else { return ([], nil) }
        let delay = Microseconds.random(in: 0 ... LinkTiming.maximumAdvertisingDelay, using: &random)
        nextEvent = now + interval + delay
        // A connectable set's data fits its AUX_ADV_IND (checked by the commands): no chain.
        // A scannable set's AUX_ADV_IND carries none (its data is the scan response).
        let lengths = isScannable ? [0] : isConnectable ? [data.count]
            : ExtendedAdvertisingTiming.fragmentLengths(
                dataLength: data.count, includesTxPower: advertisedTxPower != nil, includesSyncInfo: periodic != nil)
        let auxiliaryChannels = lengths.map { _ in UInt8.random(in: 0 ... 36, using: &random) }
        let packets = event(
            at: now, data: data, dataID: dataID, lengths: lengths, auxiliaryChannels: auxiliaryChannels, periodic: periodic)
        guard let last = packets.last else { return ([], nil) }
        // A connectable set keeps the radio for the exchange its AUX_ADV_IND may start.
        let end = isConnectable ? last.end + connectExchangeDuration
            : isScannable ? last.end + scanExchangeDuration(scanResponse: scanResponse, dataID: dataID) : last.end
        guard radioFreeUntil.map({ end <= $0 }) ?? true else { return ([], nil) }
        completedEvents += 1
        busyUntil = end
        connectRequestWindow = isConnectable || isScannable
            ? LinkTiming.responseWindow(after: last.end, channel: last.channel, phy: secondaryPHY) : nil
        return (packets, nil)
    }

    /// The packets of one event starting at `start`: ADV_EXT_IND on each primary channel,
    /// T_MAFS-rounded AuxPtr offsets to the AUX_ADV_IND, and the chain. With a periodic
    /// train, the AUX_ADV_IND carries its SyncInfo (§2.3.4.6).
    func event(
        at start: Microseconds, data: [UInt8], dataID: UInt16, lengths: [Int], auxiliaryChannels: [UInt8],
        periodic: PeriodicAdvertiser? = nil
    ) -> [RadioTransmission] {
        typealias Payload = LL.ExtendedAdvertisingPayload
        let mode: Payload.AdvertisingMode = isConnectable ? .connectable : isScannable ? .scannable : .nonConnectableNonScannable
        let adi = Payload.AdvertisingDataInfo(dataID: dataID, setID: setID)
        // The auxiliary PDUs, each with a placeholder pointer where one is needed (its size is what matters here).
        var auxiliary: [Payload] = []
        var offset = 0
        for (index, length) in lengths.enumerated() {
            let last = index == lengths.count - 1
            let placeholder = last ? nil : ExtendedAdvertisingTiming.pointer(channel: 0, offset: 0, phy: secondaryPHY)
            auxiliary.append(Payload(
                mode: mode, advertiserAddress: index == 0 ? ownAddress : nil, targetAddress: index == 0 ? targetAddress : nil,
                dataInfo: adi, auxiliaryPointer: placeholder,
                txPower: index == 0 ? advertisedTxPower : nil, data: data[offset ..< offset + length]))
            // A placeholder of SyncInfo's size; the real one needs the packet's start.
            if index == 0, periodic != nil { auxiliary[0].syncInfo = ArraySlice(repeating: 0, count: LL.SyncInfo.length) }
            offset += length
        }
        // The primary PDUs, a whole number of offset units apart so that every pointer is exact.
        let primary = Payload(
            mode: mode, dataInfo: adi, auxiliaryPointer: ExtendedAdvertisingTiming.pointer(channel: 0, offset: 0, phy: secondaryPHY))
        let primaryAirtime = Airtime.duration(pduOctets: 2 + primary.encodedCount, phy: primaryPHY)
        let step = ExtendedAdvertisingTiming.roundedUpToOffsetUnit(primaryAirtime + LinkTiming.channelSwitchGap)
        let primaryStarts = primaryChannels.indices.map { start + Microseconds($0) * step }
        var auxiliaryStarts: [Microseconds] = [(primaryStarts.last ?? start) + ExtendedAdvertisingTiming.minimumAuxiliaryOffset(after: primaryAirtime)]
        for payload in auxiliary.dropLast() {
            let airtime = Airtime.duration(pduOctets: 2 + payload.encodedCount, phy: secondaryPHY)
            auxiliaryStarts.append(auxiliaryStarts[auxiliaryStarts.count - 1] + ExtendedAdvertisingTiming.minimumAuxiliaryOffset(after: airtime))
        }
        var packets: [RadioTransmission] = []
        for (channel, primaryStart) in zip(primaryChannels, primaryStarts) {
            var payload = primary
            payload.auxiliaryPointer = ExtendedAdvertisingTiming.pointer(
                channel: auxiliaryChannels[0], offset: auxiliaryStarts[0] - primaryStart, phy: secondaryPHY)
            packets.append(transmission(payload, channel: channel, phy: primaryPHY, start: primaryStart))
        }
        for index in auxiliary.indices {
            var payload = auxiliary[index]
            if payload.auxiliaryPointer != nil {
                payload.auxiliaryPointer = ExtendedAdvertisingTiming.pointer(
                    channel: auxiliaryChannels[index + 1], offset: auxiliaryStarts[index + 1] - auxiliaryStarts[index],
                    phy: secondaryPHY)
            }
            if index == 0, let periodic {
                payload.syncInfo = periodic.syncInfo(forPacketAt: auxiliaryStarts[0]).map { $0.encoded()[...] }
            }
            packets.append(transmission(payload, channel: auxiliaryChannels[index], phy: secondaryPHY, start: auxiliaryStarts[index]))
        }
        return packets
    }

    private func transmission(
        _ payload: LL.ExtendedAdvertisingPayload, channel: UInt8, phy: RadioPHY, start: Microseconds
    ) -> RadioTransmission {
        RadioTransmission(
            channel: channel, phy: phy, accessAddress: RadioTransmission.advertisingAccessAddress,
            pdu: payload.pdu.encoded(), start: start, txPowerDBm: txPowerDBm)
    }
}
