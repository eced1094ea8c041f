import BLEWire

/// Legacy advertising (Core 5.4, Vol 6, Part B, §4.4.2): advertising events on the primary
/// channels of the channel map, each event starting advInterval + advDelay after the previous
/// one, with a listen T_IFS after every connectable or scannable PDU for SCAN_REQ and
/// CONNECT_IND. High duty cycle directed advertising sends events back to back and gives up
/// after 1.28 s.
struct LegacyAdvertiser: Sendable {
    /// Where the advertiser is between and within events.
    enum Phase: Equatable, Sendable {
        /// Between events; the next one starts at the given time.
        case waiting(nextEvent: Microseconds)
        /// Inside an event: the PDU on `channelIndex` was sent; `window` waits for an
        /// answer; at `resumeAt` the next channel (or the end of the event) is due.
        case inEvent(channelIndex: Int, resumeAt: Microseconds, window: ReceiverWindow?)
    }

    let parameters: HCI.LESetAdvertisingParameters
    let ownAddress: BluetoothAddress
    private(set) var advertisingPDU: LL.AdvertisingPDU {
        didSet { advertisingPDUBytes = advertisingPDU.encoded() }
    }
    /// ``advertisingPDU`` encoded once, not for every PDU sent: a beacon sends the same
    /// bytes on every channel of every event until its data changes.
    private var advertisingPDUBytes: [UInt8]
    private(set) var scanResponsePDU: LL.AdvertisingPDU
    let channels: [UInt8]
    let txPowerDBm: Double
    let interval: Microseconds
    /// When high duty cycle directed advertising stops with Advertising Timeout.
    let highDutyCycleDeadline: Microseconds?
    private(set) var phase: Phase
    private var eventStart: Microseconds
    /// Events started (for tests and counters).
    private(set) var eventCount = 0
    /// CONNECT_INDs addressed to this advertiser and refused for LLData out of range.
    private(set) var refusedConnectIndications = 0

    /// Whether the controller has Channel Selection Algorithm #2: ADV_IND and ADV_DIRECT_IND
    /// set ChSel, and a CONNECT_IND that sets it too makes a link that hops with #2 (§2.3.1.1).
    let supportsChannelSelection2: Bool

    /// Starts advertising at `now` (the first event begins at once).
    init(
        parameters: HCI.LESetAdvertisingParameters, ownAddress: BluetoothAddress,
        advertisingData: [UInt8], scanResponseData: [UInt8], txPowerDBm: Double, now: Microseconds,
        supportsChannelSelection2: Bool = false
    ) {
        self.parameters = parameters
        self.supportsChannelSelection2 = supportsChannelSelection2
        self.ownAddress = ownAddress
        self.txPowerDBm = txPowerDBm
        let data = advertisingData[...]
        switch parameters.advertisingType {
        case .connectableUndirected:
            advertisingPDU = LL.AdvertisingPDU(
                payload: .advInd(advertiserAddress: ownAddress, data: data), channelSelection: supportsChannelSelection2)
        case .connectableDirectedHighDutyCycle, .connectableDirectedLowDutyCycle:
            advertisingPDU = LL.AdvertisingPDU(
                payload: .advDirectInd(advertiserAddress: ownAddress, targetAddress: parameters.peerAddress),
                channelSelection: supportsChannelSelection2)
        case .scannableUndirected:
            advertisingPDU = LL.AdvertisingPDU(payload: .advScanInd(advertiserAddress: ownAddress, data: data))
        case .nonConnectableUndirected:
            advertisingPDU = LL.AdvertisingPDU(payload: .advNonconnInd(advertiserAddress: ownAddress, data: data))
        }
        advertisingPDUBytes = advertisingPDU.encoded()
        scanResponsePDU = LL.AdvertisingPDU(payload: .scanRsp(advertiserAddress: ownAddress, data: scanResponseData[...]))
        let map = parameters.advertisingChannelMap
        channels = [(HCI.AdvertisingChannelMap.channel37, UInt8(37)), (.channel38, 38), (.channel39, 39)]
            .filter { map.contains($0.0) }.map(\.1)
        interval = Microseconds(parameters.advertisingIntervalMin) * LinkTiming.unit625
        highDutyCycleDeadline = parameters.advertisingType == .connectableDirectedHighDutyCycle
            ? now + LinkTiming.highDutyCycleTimeout : nil
        phase = .waiting(nextEvent: now)
        eventStart = now
    }

    /// New advertising data while advertising (LE Set Advertising Data, §7.8.7): used from
    /// the next PDU on. Directed PDUs carry no data and stay as they are.
    mutating func update(advertisingData data: [UInt8]) {
        switch advertisingPDU.payload {
        case .advInd: advertisingPDU.payload = .advInd(advertiserAddress: ownAddress, data: data[...])
        case .advScanInd: advertisingPDU.payload = .advScanInd(advertiserAddress: ownAddress, data: data[...])
        case .advNonconnInd: advertisingPDU.payload = .advNonconnInd(advertiserAddress: ownAddress, data: data[...])
        default: break
        }
    }

    /// New scan response data while advertising (LE Set Scan Response Data, §7.8.8).
    mutating func update(scanResponseData data: [UInt8]) {
        scanResponsePDU.payload = .scanRsp(advertiserAddress: ownAddress, data: data[...])
    }

    /// Whether SCAN_REQ gets an answer (ADV_IND and ADV_SCAN_IND).
    var isScannable: Bool {
        parameters.advertisingType == .connectableUndirected || parameters.advertisingType == .scannableUndirected
    }

    /// Whether CONNECT_IND is accepted (ADV_IND and ADV_DIRECT_IND).
    var isConnectable: Bool {
        switch parameters.advertisingType {
        case .connectableUndirected, .connectableDirectedHighDutyCycle, .connectableDirectedLowDutyCycle: return true
        case .scannableUndirected, .nonConnectableUndirected: return false
        }
    }

    /// Whether the directed variants are in use.
    var isDirected: Bool {
        parameters.advertisingType == .connectableDirectedHighDutyCycle
            || parameters.advertisingType == .connectableDirectedLowDutyCycle
    }

    /// When the advertiser next needs the timer.
    var nextDeadline: Microseconds {
        switch phase {
        case let .waiting(next): return highDutyCycleDeadline.map { min($0, next) } ?? next
        case let .inEvent(_, resumeAt, _): return resumeAt
        }
    }

    /// When the next event will start, if the advertiser is between events.
    var nextEventStart: Microseconds? {
        if case let .waiting(next) = phase { return next }
        return nil
    }

    /// What the advertiser wants of the receiver.
    var claim: RadioClaim {
        if case let .inEvent(_, _, window) = phase { return .busy(window) }
        return .none
    }

    /// The timer: start an event, move to the next channel, or end the event.
    /// `radioFreeUntil` is when a connection next needs the radio: an event whose first PDU
    /// (with the answer it may get) would not end by then is skipped, and one that has begun
    /// ends early rather than send a PDU that would not.
    /// Returns `nil` when high duty cycle advertising timed out (the caller stops it).
    mutating func timer(
        at now: Microseconds, radioFreeUntil: Microseconds?, random: inout ControllerRandom
    ) -> [LinkEffect]? {
        switch phase {
        case let .waiting(next):
            if let deadline = highDutyCycleDeadline, now >= deadline { return nil }
            guard now >= next else { return [] }
            eventStart = now
            if channels.isEmpty || !fits(at: now, before: radioFreeUntil) {
                // Skip this slot; a high duty cycle advertiser retries one 1.25 ms slot later.
                if highDutyCycleDeadline != nil {
                    phase = .waiting(nextEvent: now + LinkTiming.unit1250)
                } else {
                    scheduleNextEvent(after: now, random: &random)
                }
                return []
            }
            eventCount += 1
            return send(on: 0, at: now)
        case let .inEvent(index, resumeAt, _):
            guard now >= resumeAt else { return [] }
            if index + 1 < channels.count, fits(at: now, before: radioFreeUntil) { return send(on: index + 1, at: now) }
            if let deadline = highDutyCycleDeadline, now >= deadline { return nil }
            scheduleNextEvent(after: now, random: &random)
            return []
        }
    }

    /// A SCAN_REQ or CONNECT_IND that arrived (ended) at `now`. Returns the effects, and
    /// whether advertising is over (a connection was accepted).
    mutating func receive(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, at now: Microseconds,
        filterAcceptList: [FilterAcceptListEntry]
    ) -> (effects: [LinkEffect], finished: Bool) {
        guard case let .inEvent(index, _, window?) = phase,
              reception.transmission.channel == window.channel,
              reception.transmission.start >= window.opens,
              reception.transmission.start <= window.closes ?? reception.transmission.start
        else { return ([], false) }
        let policy = parameters.advertisingFilterPolicy
        switch pdu.payload {
        case let .scanReq(scanner, advertiser):
            guard isScannable, advertiser == ownAddress else { return ([], false) }
            let filtered = policy == .scanFromFilterAcceptList || policy == .scanAndConnectFromFilterAcceptList
            guard !filtered || filterAcceptList.contains(device: scanner) else { return ([], false) }
            let response = LinkTiming.advertisingTransmission(
                scanResponsePDU, channel: window.channel, start: now + LinkTiming.interFrameSpace, txPowerDBm: txPowerDBm)
            phase = .inEvent(channelIndex: index, resumeAt: response.end + LinkTiming.channelSwitchGap, window: nil)
            return ([.transmit(response)], false)
        case let .connectInd(initiator, advertiser, data):
            guard isConnectable, advertiser == ownAddress else { return ([], false) }
            if isDirected {
                guard initiator == parameters.peerAddress else { return ([], false) }
            } else {
                let filtered = policy == .connectFromFilterAcceptList || policy == .scanAndConnectFromFilterAcceptList
                guard !filtered || filterAcceptList.contains(device: initiator) else { return ([], false) }
            }
            // A CONNECT_IND with LLData out of range starts nothing: advertising goes on
            // as if it had not arrived (SweynTooth's Invalid Connection Request).
            guard data.invalidity == nil else {
                refusedConnectIndications += 1
                return ([], false)
            }
            let connection = NewConnection(
                role: .peripheral, request: data, connectIndicationEnd: reception.transmission.end,
                localAddress: ownAddress, peerAddress: initiator,
                channelSelectionAlgorithm2: supportsChannelSelection2 && pdu.channelSelection)
            return ([.connected(connection)], true)
        default:
            return ([], false)
        }
    }

    /// Whether a PDU sent at `now`, with the answer it may get, is over by `radioFreeUntil`.
    private func fits(at now: Microseconds, before radioFreeUntil: Microseconds?) -> Bool {
        guard let radioFreeUntil else { return true }
        let end = now + Airtime.duration(pduOctets: advertisingPDUBytes.count, phy: .le1M)
        let ifs = LinkTiming.interFrameSpace
        var last = end
        if isConnectable { last = max(last, end + ifs + LinkTiming.responseWindowMargin + LinkTiming.connectIndicationAirtime) }
        if isScannable {
            let scanRequest = Airtime.duration(pduOctets: 2 + 12, phy: .le1M)
            last = max(last, end + ifs + scanRequest + ifs + LinkTiming.longestScanResponseAirtime)
        }
        return last <= radioFreeUntil
    }

    /// Sends the advertising PDU on channel `index` at `now` and waits for an answer if the
    /// type takes one.
    private mutating func send(on index: Int, at now: Microseconds) -> [LinkEffect] {
        guard index < channels.count else { return [] }
        let channel = channels[index]
        let transmission = RadioTransmission(
            channel: channel, phy: .le1M, accessAddress: RadioTransmission.advertisingAccessAddress,
            pdu: advertisingPDUBytes, start: now, txPowerDBm: txPowerDBm)
        if isScannable || isConnectable {
            let window = LinkTiming.responseWindow(after: transmission.end, channel: channel)
            let resume = (window.closes ?? transmission.end) + LinkTiming.connectIndicationAirtime
                + LinkTiming.channelSwitchGap
            phase = .inEvent(channelIndex: index, resumeAt: resume, window: window)
        } else {
            phase = .inEvent(channelIndex: index, resumeAt: transmission.end + LinkTiming.channelSwitchGap, window: nil)
        }
        return [.transmit(transmission)]
    }

    /// Plans the next event: at once for high duty cycle directed advertising, otherwise
    /// advInterval + advDelay (0–10 ms, §4.4.2.2.1) after this event's start.
    private mutating func scheduleNextEvent(after now: Microseconds, random: inout ControllerRandom) {
        if highDutyCycleDeadline != nil {
            phase = .waiting(nextEvent: now)
            return
        }
        let delay = Microseconds.random(in: 0 ... LinkTiming.maximumAdvertisingDelay, using: &random)
        phase = .waiting(nextEvent: max(now, eventStart + interval + delay))
    }
}
