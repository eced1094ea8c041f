import BLEWire

/// The initiating state (Core 5.4, Vol 6, Part B, §4.4.4 and §4.5): listens like a scanner
/// for a connectable advertisement from the peer (or from a device on the filter accept
/// list) and answers it T_IFS later with CONNECT_IND. Started by LE Extended Create
/// Connection, it also scans LE Coded's primary channels and follows a connectable
/// ADV_EXT_IND to its AUX_ADV_IND, which it answers with AUX_CONNECT_REQ
/// (Initiator+Extended.swift).
struct Initiator: Sendable {
    /// The Create Connection; its peer may be re-aimed at a resolved private address.
    var command: HCI.LECreateConnection
    let ownAddress: BluetoothAddress
    let txPowerDBm: Double
    /// Data channels the host allows (LE Set Host Channel Classification).
    let channelMap: UInt64
    private(set) var schedule: ScanSchedule
    /// The connection parameters for each PHY a connection may start on (LE Extended Create
    /// Connection's Initiating_PHYs, Vol 4, Part E, §7.8.66); `nil` for LE Create Connection.
    let parametersByPHY: [HCI.PHY: HCI.LEConnectionParameters]?
    /// Whether the controller has Channel Selection Algorithm #2: CONNECT_IND sets ChSel
    /// when the advertising PDU did, and the link then hops with #2 (§2.3.3.1).
    let supportsChannelSelection2: Bool
    /// The extended advertising being followed, or the AUX_CONNECT_RSP awaited.
    var following: AuxiliaryFollow?

    /// Starts initiating at `now`, on LE 1M with the command's scan interval and window, or
    /// on the primary PHYs of `legs` in turn.
    init(command: HCI.LECreateConnection, ownAddress: BluetoothAddress, channelMap: UInt64,
         txPowerDBm: Double, now: Microseconds, legs: [ScanSchedule.Leg] = [],
         parametersByPHY: [HCI.PHY: HCI.LEConnectionParameters]? = nil, supportsChannelSelection2: Bool = false) {
        self.command = command
        self.ownAddress = ownAddress
        self.channelMap = channelMap
        self.txPowerDBm = txPowerDBm
        schedule = legs.isEmpty
            ? ScanSchedule(interval: command.leScanInterval, window: command.leScanWindow, now: now)
            : ScanSchedule(legs: legs, now: now)
        self.parametersByPHY = parametersByPHY
        self.supportsChannelSelection2 = supportsChannelSelection2
    }

    /// What the initiator wants of the receiver at `now`: the awaited auxiliary packet first.
    func claim(at now: Microseconds) -> RadioClaim {
        if let following { return .busy(following.window) }
        return schedule.listenWindow(at: now).map(RadioClaim.listen) ?? .none
    }

    /// When the initiator next needs the timer.
    func nextDeadline(after now: Microseconds) -> Microseconds {
        let next = schedule.nextDeadline(after: now)
        return following.map { min($0.giveUpAt, next) } ?? next
    }

    /// The timer: give up on an auxiliary packet that did not come, move to the next interval.
    mutating func timer(at now: Microseconds) {
        if let pending = following, now >= pending.giveUpAt { following = nil }
        schedule.advance(to: now)
    }

    /// Whether `advertiser` is the device this initiator connects to.
    func isTarget(_ advertiser: BluetoothAddress, filterAcceptList: [FilterAcceptListEntry]) -> Bool {
        switch command.initiatorFilterPolicy {
        case .usePeerAddress:
            return advertiser.value == command.peerAddress.value
                && command.peerAddressType.addressKind == advertiser.kind
        case .useFilterAcceptList:
            return filterAcceptList.contains(device: advertiser)
        }
    }

    /// An advertising-channel PDU that ended at `now`: on a connectable PDU from the target,
    /// send CONNECT_IND T_IFS later, unless it would overlap `radioFreeUntil`. The new link's
    /// anchors are placed between those of `existingLinks`. Returns the effects (`.transmit`
    /// and `.connected`) or nothing.
    func receive(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, at now: Microseconds,
        filterAcceptList: [FilterAcceptListEntry], radioFreeUntil: Microseconds?,
        existingLinks: [LinkSchedule], random: inout ControllerRandom
    ) -> [LinkEffect] {
        let transmission = reception.transmission
        guard schedule.heard(transmission) else { return [] }
        let advertiser: BluetoothAddress
        switch pdu.payload {
        case let .advInd(address, _): advertiser = address
        case let .advDirectInd(address, target):
            guard target == ownAddress else { return [] }
            advertiser = address
        default: return []
        }
        guard following == nil, isTarget(advertiser, filterAcceptList: filterAcceptList) else { return [] }
        let connectIndicationEnd = now + LinkTiming.interFrameSpace + LinkTiming.connectIndicationAirtime
        let request = connectionRequest(
            command.connectionParameters, firstWindow: connectIndicationEnd + LinkTiming.unit1250,
            existingLinks: existingLinks, random: &random)
        let channelSelection2 = supportsChannelSelection2 && pdu.channelSelection
        let connectIndication = LL.AdvertisingPDU(payload: .connectInd(
            initiatorAddress: ownAddress, advertiserAddress: advertiser, linkLayerData: request),
            channelSelection: supportsChannelSelection2)
        let sent = LinkTiming.advertisingTransmission(
            connectIndication, channel: transmission.channel, start: now + LinkTiming.interFrameSpace,
            txPowerDBm: txPowerDBm)
        if let free = radioFreeUntil, sent.end > free { return [] }
        let connection = NewConnection(
            role: .central, request: request, connectIndicationEnd: sent.end,
            localAddress: ownAddress, peerAddress: advertiser, channelSelectionAlgorithm2: channelSelection2)
        return [.transmit(sent), .connected(connection)]
    }

    /// The LLData of a connect request with `parameters` whose transmit window would start at
    /// `firstWindow` with no offset; the offset keeps the new link's anchors away from
    /// `existingLinks` (``windowOffset(firstWindow:interval:existingLinks:)``).
    func connectionRequest(
        _ parameters: HCI.LEConnectionParameters, firstWindow: Microseconds, existingLinks: [LinkSchedule],
        random: inout ControllerRandom
    ) -> LL.ConnectionRequestData {
        let offset = Initiator.windowOffset(
            firstWindow: firstWindow, interval: parameters.connectionIntervalMin, existingLinks: existingLinks)
        var request = LL.ConnectionRequestData(
            accessAddress: Initiator.accessAddress(using: &random),
            crcInit: UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF,
            windowSize: UInt8.random(in: 1 ... 2, using: &random),
            windowOffset: 0,
            interval: parameters.connectionIntervalMin,
            latency: parameters.maxLatency,
            timeout: parameters.supervisionTimeout,
            channelMap: channelMap,
            hopIncrement: UInt8.random(in: 5 ... 16, using: &random),
            sleepClockAccuracy: HCI.ClockAccuracy.ppm50.rawValue)
        request.windowOffset = offset
        return request
    }

    /// The transmit window offset, in 1.25 ms units, that puts a new link's anchors farthest
    /// from the events of `existingLinks` over its first second (Core 5.4, Vol 6, Part B,
    /// §4.5.3: the initiator chooses windowOffset, 0 to connInterval, for its own scheduling).
    /// The central sends its first packet at the start of the transmit window. With links of
    /// the same interval the distance holds forever; with others it drifts, and the link that
    /// collides later skips an event. Without existing links the offset is 0.
    static func windowOffset(firstWindow: Microseconds, interval units: UInt16, existingLinks: [LinkSchedule]) -> UInt16 {
        guard !existingLinks.isEmpty else { return 0 }
        let interval = max(Microseconds(units), 6) * LinkTiming.unit1250
        let events = Int(min(max(1_000_000 / interval, 1), 64))
        var best: (offset: UInt16, distance: Microseconds) = (0, -1)
        for offset in 0 ..< UInt16(interval / LinkTiming.unit1250) {
            var distance = Microseconds.max
            for event in 0 ..< events {
                let anchor = firstWindow + Microseconds(offset) * LinkTiming.unit1250 + Microseconds(event) * interval
                for link in existingLinks where link.interval > 0 {
                    let phase = ((anchor - link.start) % link.interval + link.interval) % link.interval
                    distance = min(distance, phase, link.interval - phase)
                }
            }
            if distance > best.distance { best = (offset, distance) }
        }
        return best.offset
    }

    /// A random access address that obeys Core 5.4, Vol 6, Part B, §2.1.2: not the
    /// advertising access address nor one bit from it, not four equal octets, at most six
    /// equal consecutive bits, at most 24 transitions in all, at least two transitions in
    /// the six most significant bits.
    static func accessAddress(using random: inout ControllerRandom) -> UInt32 {
        while true {
            let candidate = UInt32(truncatingIfNeeded: random.next())
            if isValidAccessAddress(candidate) { return candidate }
        }
    }

    /// Whether `address` obeys the data-channel access address rules of §2.1.2.
    static func isValidAccessAddress(_ address: UInt32) -> Bool {
        let advertising = RadioTransmission.advertisingAccessAddress
        if address == advertising || (address ^ advertising).nonzeroBitCount == 1 { return false }
        let octet = address & 0xFF
        if address == octet | octet << 8 | octet << 16 | octet << 24 { return false }
        var run = 1
        var transitions = 0
        for bit in 1 ..< 32 {
            if (address >> UInt32(bit)) & 1 == (address >> UInt32(bit - 1)) & 1 {
                run += 1
                if run > 6 { return false }
            } else {
                run = 1
                transitions += 1
            }
        }
        if transitions > 24 { return false }
        var topTransitions = 0
        for bit in 27 ..< 32 where (address >> UInt32(bit)) & 1 != (address >> UInt32(bit - 1)) & 1 {
            topTransitions += 1
        }
        return topTransitions >= 2
    }
}
