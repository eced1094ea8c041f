import BLEWire

/// Extended scanning on LE 1M, LE Coded or both in turn (Core 5.4, Vol 6, Part B, §4.4.3
/// and §4.4.3.6; ``ScanSchedule``): legacy PDUs
/// are handled as by ``LegacyScanner`` (SCAN_REQ included when active) and reported as LE
/// Extended Advertising Reports with the legacy bit; an ADV_EXT_IND heard in the scan window
/// (non-connectable or connectable, which the reports say) is followed through its AuxPtr
/// to the AUX_ADV_IND and the AUX_CHAIN_INDs after it, and their data reaches the host in
/// reports of at most 229 octets, each marked "incomplete, more to come" until the last,
/// "complete" (Vol 4, Part E, §7.7.65.13). A chain whose next packet does not arrive ends
/// with an empty report marked "incomplete, truncated". Each report names the PHY the
/// ADV_EXT_IND came on and the one its AuxPtr named.
struct ExtendedScanner: Sendable {
    /// A chain being followed: the next auxiliary packet is awaited in `window` until `giveUpAt`.
    struct Chain: Sendable {
        var advertiser: BluetoothAddress?
        var dataInfo: LL.ExtendedAdvertisingPayload.AdvertisingDataInfo?
        /// The PHY the chain's ADV_EXT_IND came on.
        var primaryPHY: HCI.PHY
        var secondaryPHY: HCI.PHY
        var window: ReceiverWindow
        var giveUpAt: Microseconds
        var txPower: Int8?
        /// Whether the advertising is connectable (AdvMode), which the reports say.
        var connectable = false
        /// Whether the advertising is scannable (AdvMode), which the reports say.
        var scannable = false
        /// Whether this chain is a scan response (AUX_SCAN_RSP and its AUX_CHAIN_INDs).
        var scanResponse = false
        var reportedAny = false
        /// Data octets reported so far: a chain longer than any set can hold is cut.
        var receivedOctets = 0
    }

    /// What duplicate filtering compares for extended advertising: the advertiser, its set and the data's version.
    struct DuplicateKey: Hashable, Sendable {
        var address: BluetoothAddress
        var setID: UInt8
        var dataID: UInt16
        var scanResponse = false
    }

    private(set) var legacy: LegacyScanner
    private(set) var chain: Chain?
    private var reported: Set<DuplicateKey> = []
    /// Extended PDUs that did not decode, or whose AuxPtr named a channel that is not a
    /// secondary advertising channel (for the controller's counters).
    private(set) var malformedPDUs = 0
    /// When the scan's duration runs out, if the host gave one.
    let endsAt: Microseconds?

    /// Starts scanning at `now`: with `parameters`' scan type, and on the primary PHYs of
    /// `legs` in turn (LE 1M with `parameters`' interval and window when `legs` is `nil`).
    init(
        parameters: HCI.LESetScanParameters, ownAddress: BluetoothAddress, filterDuplicates: Bool,
        duration: UInt16, txPowerDBm: Double, now: Microseconds, legs: [ScanSchedule.Leg]? = nil
    ) {
        legacy = LegacyScanner(
            parameters: parameters, ownAddress: ownAddress, filterDuplicates: filterDuplicates,
            txPowerDBm: txPowerDBm, now: now, legs: legs)
        endsAt = duration == 0 ? nil : now + Microseconds(duration) * 10_000
    }

    /// The scan parameters (in their legacy form).
    var parameters: HCI.LESetScanParameters { legacy.parameters }

    /// What the scanner wants of the receiver: the chain's next packet first.
    func claim(at now: Microseconds) -> RadioClaim {
        if let chain { return .busy(chain.window) }
        return legacy.claim(at: now)
    }

    /// When the scanner next needs the timer.
    func nextDeadline(after now: Microseconds) -> Microseconds {
        var next = legacy.nextDeadline(after: now)
        if let chain { next = min(next, chain.giveUpAt) }
        if let endsAt { next = min(next, endsAt) }
        return next
    }

    /// Whether the scan's duration is over at `now`.
    func isOver(at now: Microseconds) -> Bool { endsAt.map { now >= $0 } ?? false }

    /// The timer: give up on a chain whose next packet did not come, move the schedule on.
    mutating func timer(at now: Microseconds) -> [LinkEffect] {
        legacy.timer(at: now)
        guard let pending = chain, now >= pending.giveUpAt else { return [] }
        chain = nil
        // Nothing was reported if the AUX_ADV_IND itself was lost: the host never heard of it.
        guard pending.reportedAny else { return [] }
        return [report(pending, data: [], status: .incompleteTruncated, rssi: LEReport.notAvailable)]
    }

    /// Whether duplicate filtering already reported `key` whole.
    func reportedScanResponse(_ key: DuplicateKey) -> Bool { reported.contains(key) }

    /// Waits for `pending`'s next packet (a scan response, ExtendedScanner+ScanRequest.swift).
    mutating func startFollowing(_ pending: Chain) { chain = pending }

    /// Stops waiting for a scan response (a higher-priority activity took the radio).
    mutating func abandonRequest() { legacy.abandonRequest() }

    /// A legacy advertising-channel PDU: as a legacy scanner (the caller turns the reports
    /// into the extended form with ``extendedForm(_:)`` once it has resolved the sender).
    mutating func receiveLegacy(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, at now: Microseconds,
        filterAcceptList: [FilterAcceptListEntry], radioFreeUntil: Microseconds?
    ) -> [LinkEffect] {
        guard chain == nil else { return [] }
        return legacy.receive(pdu, reception, at: now, filterAcceptList: filterAcceptList, radioFreeUntil: radioFreeUntil)
    }

    /// A PDU of type 0b0111: an ADV_EXT_IND on a primary channel in the scan window, or the
    /// auxiliary packet a chain waits for.
    mutating func receiveExtended(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, at now: Microseconds, radioFreeUntil: Microseconds? = nil
    ) -> [LinkEffect] {
        guard case let .extended(_, bytes) = pdu.payload else { return [] }
        let header = pdu.reservedBits
        guard let payload = try? LL.ExtendedAdvertisingPayload(
            decoding: bytes, txKind: header & LL.AdvertisingPDU.txAddBit != 0 ? .random : .public,
            rxKind: header & LL.AdvertisingPDU.rxAddBit != 0 ? .random : .public),
            payload.auxiliaryPointer.map({ $0.channelIndex <= Self.highestSecondaryChannel }) ?? true
        else {
            malformedPDUs += 1
            return []
        }
        let transmission = reception.transmission
        if var pending = chain {
            let window = pending.window
            guard transmission.channel == window.channel, transmission.start >= window.opens,
                  transmission.start <= window.closes ?? transmission.start,
                  payload.dataInfo == pending.dataInfo,
                  // An AUX_CHAIN_IND carries no AdvA (Vol 6, Part B, §2.3.4.6): a packet naming another
                  // advertiser is that advertiser's AUX_ADV_IND, caught in this chain's window.
                  pending.advertiser == nil || payload.advertiserAddress == nil || payload.advertiserAddress == pending.advertiser
            else { return [] }
            // A scannable set's AUX_ADV_IND (no data, no chain): an active scan asks for its scan response.
            let asksForScanResponse = pending.scannable && !pending.scanResponse && payload.advertiserAddress != nil
                && payload.auxiliaryPointer == nil && legacy.parameters.leScanType == .active
            if pending.advertiser == nil { pending.advertiser = payload.advertiserAddress }
            if pending.txPower == nil { pending.txPower = payload.txPower }
            let effects = follow(payload, chain: pending, reception: reception)
            guard asksForScanResponse else { return effects }
            return effects + requestScanResponse(pending, reception: reception, at: now, radioFreeUntil: radioFreeUntil)
        }
        guard legacy.request == nil, legacy.schedule.heard(transmission) else { return [] }
        let pending = Chain(
            advertiser: payload.advertiserAddress, dataInfo: payload.dataInfo, primaryPHY: transmission.phy.hciPHY,
            secondaryPHY: .le1M,
            window: transmission.window(), giveUpAt: now, txPower: payload.txPower, connectable: payload.mode == .connectable,
            scannable: payload.mode == .scannable)
        return follow(payload, chain: pending, reception: reception)
    }

    /// Reports the data of `payload` and waits for the packet its AuxPtr points to, if any.
    private mutating func follow(_ payload: LL.ExtendedAdvertisingPayload, chain pending: Chain, reception: RadioReception) -> [LinkEffect] {
        var pending = pending
        let isPrimary = reception.transmission.channel >= 37
        if !isPrimary, !pending.reportedAny, let address = pending.advertiser, let adi = pending.dataInfo, legacy.filterDuplicates {
            // Duplicate filtering (§7.8.65): the same set's same data from the same advertiser is
            // reported once it has arrived complete (a truncated copy does not count).
            guard !reported.contains(DuplicateKey(address: address, setID: adi.setID, dataID: adi.dataID, scanResponse: pending.scanResponse)) else {
                chain = nil
                return []
            }
        }
        var effects: [LinkEffect] = []
        pending.receivedOctets += payload.data.count
        if pending.receivedOctets > Self.longestChainData {
            // Longer than any advertiser may send (§7.8.57): cut, as a lost packet would.
            chain = nil
            return [report(pending, data: [], status: .incompleteTruncated, rssi: reception.rssi)]
        }
        if let pointer = payload.auxiliaryPointer {
            let start = reception.transmission.start + pointer.offsetMicroseconds
            // LE Coded: either coding, since the packet's Coding Indicator says which; the
            // longest airtime, waited for when the packet does not come, is S=8's.
            let phy = RadioPHY(pointer.phy)
            pending.secondaryPHY = pointer.phy
            pending.window = ReceiverWindow(
                channel: pointer.channelIndex, phy: phy, accessAddress: RadioTransmission.advertisingAccessAddress,
                opens: start, closes: start + pointer.offsetUnit.microseconds)
            pending.giveUpAt = start + pointer.offsetUnit.microseconds
                + Airtime.duration(pduOctets: ExtendedAdvertisingTiming.longestPDUOctets, phy: phy)
            // The primary PDU's data, if any, comes ahead of the chain's; a primary PDU has none here.
            if !isPrimary {
                for fragment in Self.fragments(payload.data) where !fragment.isEmpty {
                    effects.append(report(pending, data: fragment, status: .incompleteMoreToCome, rssi: reception.rssi))
                    pending.reportedAny = true
                }
            }
            chain = pending
            return effects
        }
        chain = nil
        if legacy.filterDuplicates, let address = pending.advertiser, let adi = pending.dataInfo {
            reported.insert(DuplicateKey(address: address, setID: adi.setID, dataID: adi.dataID, scanResponse: pending.scanResponse))
        }
        let pieces = Self.fragments(payload.data)
        for (index, fragment) in pieces.enumerated() {
            let status: LEReport.EventType.DataStatus = index == pieces.count - 1 ? .complete : .incompleteMoreToCome
            effects.append(report(pending, data: fragment, status: status, rssi: reception.rssi))
        }
        return effects
    }

    /// `data` in pieces of at most 229 octets; one empty piece for no data.
    private static func fragments(_ data: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        let size = LEReport.maximumDataLength
        guard !data.isEmpty else { return [[]] }
        return stride(from: data.startIndex, to: data.endIndex, by: size).map { data[$0 ..< min($0 + size, data.endIndex)] }
    }

    typealias LEReport = HCI.LEExtendedAdvertisingReport
    /// The highest secondary advertising channel index (Vol 6, Part B, §1.4.1).
    static let highestSecondaryChannel: UInt8 = 36
    /// The most data a chain may carry: the largest advertising data of a set (Vol 4, Part E, §7.8.57).
    static let longestChainData = 1650

    /// One LE Extended Advertising Report of a chain's data.
    private func report(_ chain: Chain, data: ArraySlice<UInt8>, status: LEReport.EventType.DataStatus, rssi: Int8) -> LinkEffect {
        let address = chain.advertiser ?? BluetoothAddress(0)
        let entry = LEReport.Report(
            eventType: LEReport.EventType(
                connectable: chain.connectable, scannable: chain.scannable, scanResponse: chain.scanResponse, dataStatus: status),
            addressType: chain.advertiser == nil ? .anonymous : (address.kind == .public ? .public : .random),
            address: address, primaryPHY: chain.primaryPHY, secondaryPHY: chain.secondaryPHY,
            advertisingSID: chain.dataInfo?.setID ?? LEReport.noAdvertisingSID, txPower: chain.txPower ?? LEReport.notAvailable,
            rssi: rssi, periodicAdvertisingInterval: 0, directAddressType: .public, directAddress: BluetoothAddress(0),
            data: Array(data)[...])
        return .event(.leMeta(.extendedAdvertisingReport(LEReport(reports: [entry]))))
    }

    /// A legacy LE Advertising Report turned into the extended form (§7.7.65.13, Table 7.1's legacy event types).
    static func extendedForm(_ effect: LinkEffect) -> LinkEffect {
        guard case let .event(.leMeta(.advertisingReport(event))) = effect else { return effect }
        let reports = event.reports.map { report -> LEReport.Report in
            let eventType: LEReport.EventType
            switch report.eventType {
            case .advInd: eventType = LEReport.EventType(connectable: true, scannable: true, legacy: true)
            case .advDirectInd: eventType = LEReport.EventType(connectable: true, directed: true, legacy: true)
            case .advScanInd: eventType = LEReport.EventType(scannable: true, legacy: true)
            case .advNonconnInd: eventType = LEReport.EventType(legacy: true)
            case .scanRsp: eventType = LEReport.EventType(connectable: true, scannable: true, scanResponse: true, legacy: true)
            }
            return LEReport.Report(
                eventType: eventType, addressType: report.addressType, address: report.address, primaryPHY: .le1M,
                secondaryPHY: nil, advertisingSID: LEReport.noAdvertisingSID, txPower: LEReport.notAvailable,
                rssi: report.rssi, periodicAdvertisingInterval: 0, directAddressType: .public,
                directAddress: BluetoothAddress(0), data: report.data)
        }
        return .event(.leMeta(.extendedAdvertisingReport(LEReport(reports: reports))))
    }
}

private extension RadioTransmission {
    /// A window that this very transmission opened (a placeholder until the AuxPtr moves it).
    func window() -> ReceiverWindow {
        ReceiverWindow(channel: channel, phy: phy, accessAddress: accessAddress, opens: start, closes: start)
    }
}
