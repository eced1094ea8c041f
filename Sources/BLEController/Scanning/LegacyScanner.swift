import BLEWire

/// Legacy passive and active scanning (Core 5.4, Vol 6, Part B, §4.4.3): reports advertising
/// PDUs as LE Advertising Report events and, when active, sends SCAN_REQ T_IFS after a
/// scannable PDU and reports the SCAN_RSP that follows.
struct LegacyScanner: Sendable {
    /// A SCAN_REQ in flight: the answer is awaited in `window` until `resumeAt`.
    struct PendingRequest: Sendable {
        var advertiser: BluetoothAddress
        var window: ReceiverWindow
        var resumeAt: Microseconds
    }

    /// What duplicate filtering compares (§4.4.3.5 as the HCI describes it): the
    /// advertiser's address and the report's event type, packed into one integer (the 48-bit
    /// address, its kind above it, the event type in the top octet), so that a set of them
    /// hashes one word per report.
    static func duplicateKey(_ address: BluetoothAddress, _ eventType: HCI.LEAdvertisingReport.EventType) -> UInt64 {
        address.value | UInt64(address.kind.rawValue) << 48 | UInt64(eventType.rawValue) << 56
    }

    let parameters: HCI.LESetScanParameters
    let ownAddress: BluetoothAddress
    let txPowerDBm: Double
    /// Whether duplicate reports are suppressed (LE Set Scan Enable). Turning it on, or off,
    /// starts the list of reported advertisers afresh (``reported``).
    var filterDuplicates: Bool {
        didSet { if filterDuplicates != oldValue { reported = [] } }
    }
    private(set) var schedule: ScanSchedule
    /// The ``duplicateKey(_:_:)`` of every report made since duplicate filtering was turned
    /// on; empty while it is off. The HCI leaves what a controller remembers to it (an LE Set
    /// Scan Enable that changes Filter_Duplicates while scanning "shall take effect", Core
    /// 5.4, Vol 4, Part E, §7.8.11): this one remembers nothing while it reports everything,
    /// so a scanner hearing a city for hours keeps no list that grows with it, and filtering
    /// turned on mid-scan reports each advertiser once more, then never again.
    private var reported: Set<UInt64> = []
    private(set) var request: PendingRequest?

    /// Starts scanning at `now`, on LE 1M with the interval and window of `parameters`, or
    /// with the PHYs of `legs` in turn when given (an extended scan; legacy PDUs come on 1M only).
    init(parameters: HCI.LESetScanParameters, ownAddress: BluetoothAddress, filterDuplicates: Bool,
         txPowerDBm: Double, now: Microseconds, legs: [ScanSchedule.Leg]? = nil) {
        self.parameters = parameters
        self.ownAddress = ownAddress
        self.filterDuplicates = filterDuplicates
        self.txPowerDBm = txPowerDBm
        if let legs {
            schedule = ScanSchedule(legs: legs, now: now)
        } else {
            schedule = ScanSchedule(interval: parameters.leScanInterval, window: parameters.leScanWindow, now: now)
        }
    }

    /// What the scanner wants of the receiver at `now`.
    func claim(at now: Microseconds) -> RadioClaim {
        if let request { return .busy(request.window) }
        return schedule.listenWindow(at: now).map(RadioClaim.listen) ?? .none
    }

    /// When the scanner next needs the timer.
    func nextDeadline(after now: Microseconds) -> Microseconds {
        let next = schedule.nextDeadline(after: now)
        return request.map { min($0.resumeAt, next) } ?? next
    }

    /// The timer: give up on an unanswered SCAN_REQ, move to the next interval.
    mutating func timer(at now: Microseconds) {
        if let request, now >= request.resumeAt { self.request = nil }
        schedule.advance(to: now)
    }

    /// Stops waiting for a scan response (a higher-priority activity took the radio).
    mutating func abandonRequest() { request = nil }

    /// An advertising-channel PDU that ended at `now`. `radioFreeUntil` is when a
    /// higher-priority activity needs the radio; a SCAN_REQ exchange that would not end by
    /// then is skipped.
    mutating func receive(
        _ pdu: LL.AdvertisingPDU, _ reception: RadioReception, at now: Microseconds,
        filterAcceptList: [FilterAcceptListEntry], radioFreeUntil: Microseconds?
    ) -> [LinkEffect] {
        let transmission = reception.transmission
        if case let .scanRsp(advertiser, data) = pdu.payload {
            guard let request, advertiser == request.advertiser, transmission.channel == request.window.channel,
                  transmission.start >= request.window.opens, transmission.start <= request.window.closes ?? now
            else { return [] }
            self.request = nil
            return report(.scanRsp, advertiser, data, reception.rssi)
        }
        guard request == nil, schedule.heard(transmission) else { return [] }
        let eventType: HCI.LEAdvertisingReport.EventType
        let advertiser: BluetoothAddress
        var data: ArraySlice<UInt8> = []
        switch pdu.payload {
        case let .advInd(address, payload): (eventType, advertiser, data) = (.advInd, address, payload)
        case let .advScanInd(address, payload): (eventType, advertiser, data) = (.advScanInd, address, payload)
        case let .advNonconnInd(address, payload): (eventType, advertiser, data) = (.advNonconnInd, address, payload)
        case let .advDirectInd(address, target):
            // Directed advertising is reported only to the device it is addressed to.
            guard target == ownAddress else { return [] }
            (eventType, advertiser) = (.advDirectInd, address)
        default:
            return []
        }
        let filtered = parameters.scanningFilterPolicy == .basicFiltered
            || parameters.scanningFilterPolicy == .extendedFiltered
        if filtered, eventType != .advDirectInd, !filterAcceptList.contains(device: advertiser) { return [] }
        var effects = report(eventType, advertiser, data, reception.rssi)
        let scannable = eventType == .advInd || eventType == .advScanInd
        let alreadyAnswered = filterDuplicates && reported.contains(Self.duplicateKey(advertiser, .scanRsp))
        if parameters.leScanType == .active, scannable, !alreadyAnswered {
            let scanRequest = LL.AdvertisingPDU(payload: .scanReq(scannerAddress: ownAddress, advertiserAddress: advertiser))
            let sent = LinkTiming.advertisingTransmission(
                scanRequest, channel: transmission.channel, start: now + LinkTiming.interFrameSpace,
                txPowerDBm: txPowerDBm)
            let window = LinkTiming.responseWindow(after: sent.end, channel: transmission.channel)
            let resumeAt = (window.closes ?? sent.end) + LinkTiming.longestScanResponseAirtime
            if radioFreeUntil.map({ resumeAt <= $0 }) ?? true {
                request = PendingRequest(advertiser: advertiser, window: window, resumeAt: resumeAt)
                effects.append(.transmit(sent))
            }
        }
        return effects
    }

    /// One LE Advertising Report, unless duplicate filtering suppresses it.
    private mutating func report(
        _ eventType: HCI.LEAdvertisingReport.EventType, _ address: BluetoothAddress, _ data: ArraySlice<UInt8>,
        _ rssi: Int8
    ) -> [LinkEffect] {
        // One look-up: a key filtering finds is already there, so inserting it changes nothing.
        if filterDuplicates, !reported.insert(Self.duplicateKey(address, eventType)).inserted { return [] }
        let entry = HCI.LEAdvertisingReport.Report(
            eventType: eventType, addressType: address.kind == .public ? .public : .random,
            address: address, data: Array(data)[...], rssi: rssi)
        return [.event(.leMeta(.advertisingReport(HCI.LEAdvertisingReport(reports: [entry]))))]
    }
}
