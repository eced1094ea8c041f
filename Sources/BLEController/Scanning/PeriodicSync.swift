import BLEWire

/// One periodic train a scanner follows (Core 5.4, Vol 6, Part B, §4.4.3.5; Vol 4, Part E,
/// §7.8.67): found through the SyncInfo of an AUX_ADV_IND, it listens at each expected
/// AUX_SYNC_IND on the channel Channel Selection Algorithm #2 gives for the train's access
/// address and event counter, follows AuxPtrs to the AUX_CHAIN_INDs, and says what the host
/// is told: Sync Established on the first AUX_SYNC_IND (or failure after six intervals
/// without one), a report per event, Sync Lost after Sync_Timeout of silence.
///
/// Receive windows: the first opens where SyncInfo's offset points and lasts one offset
/// unit (the offset is rounded down to it); later ones are ±``windowWidening`` around the
/// anchor (the simulated clocks do not drift). After a received event the scanner may skip
/// up to Skip events; after a missed one it listens to the next.
struct PeriodicSync: Sendable {
    /// What happened, for the controller to tell the host.
    enum Outcome: Equatable, Sendable {
        /// The first AUX_SYNC_IND arrived.
        case established
        /// No AUX_SYNC_IND in the first six intervals: Connection Failed to be Established (0x3E).
        case failedToEstablish
        /// Data of an event, in report-sized pieces.
        case report(ArraySlice<UInt8>, HCI.LEPeriodicAdvertisingReport.DataStatus)
        /// Sync_Timeout passed without a packet: Sync Lost.
        case lost
    }

    /// How far around a later anchor the receiver listens.
    static let windowWidening: Microseconds = 32
    /// How many intervals may pass before the first AUX_SYNC_IND (§4.4.3.5: six).
    static let establishingEvents: UInt16 = 6
    /// The most data one event may carry (§7.8.62).
    static let longestEventData = 1650

    let handle: UInt16
    let setID: UInt8
    let advertiser: BluetoothAddress
    let accessAddress: UInt32
    let intervalUnits: UInt16
    let interval: Microseconds
    let phy: RadioPHY
    let clockAccuracy: HCI.ClockAccuracy
    let timeout: Microseconds
    let skip: UInt16
    /// Options bit 1: the host asked for no reports (§7.8.67); Sync Established and Sync
    /// Lost still come.
    let reportingDisabled: Bool
    private let channels: ChannelSelectionAlgorithm2
    private(set) var isEstablished = false
    /// paEventCounter of the next AUX_SYNC_IND listened for, and when its window opens and closes.
    private(set) var counter: UInt16
    private var opens: Microseconds
    private var closes: Microseconds
    private let firstCounter: UInt16
    private var lastHeard: Microseconds
    /// The AUX_CHAIN_IND awaited, with when to give it up, and the event's data so far.
    private var chain: (window: ReceiverWindow, giveUpAt: Microseconds)?
    private var eventStart: Microseconds = 0
    private var eventCounter: UInt16 = 0
    private var receivedOctets = 0

    /// The sync described by `info`, carried by an AUX_ADV_IND that started at `packetStart`.
    init(
        handle: UInt16, request: HCI.LEPeriodicAdvertisingCreateSync, advertiser: BluetoothAddress, info: LL.SyncInfo,
        packetStart: Microseconds, phy: RadioPHY, now: Microseconds
    ) {
        self.handle = handle
        setID = request.advertisingSID
        self.advertiser = advertiser
        accessAddress = info.accessAddress
        intervalUnits = info.interval
        interval = Microseconds(info.interval) * LinkTiming.unit1250
        self.phy = phy
        clockAccuracy = HCI.ClockAccuracy(rawValue: info.sleepClockAccuracy) ?? .ppm500
        timeout = Microseconds(request.syncTimeout) * 10_000
        skip = request.skip
        reportingDisabled = request.options.contains(.reportingInitiallyDisabled)
        channels = ChannelSelectionAlgorithm2(accessAddress: info.accessAddress, channelMap: info.channelMap)
        counter = info.eventCounter
        firstCounter = info.eventCounter
        opens = packetStart + info.offsetMicroseconds
        closes = opens + info.offsetUnit.microseconds
        lastHeard = now
    }

    /// The window for the next packet of the train.
    var window: ReceiverWindow {
        chain?.window ?? ReceiverWindow(channel: channels.channel(counter: counter), phy: phy, accessAddress: accessAddress,
                                        opens: opens, closes: closes)
    }

    /// The receiver, from a window's opening until its packet would have ended.
    func claim(at now: Microseconds) -> RadioClaim {
        if let chain { return .busy(chain.window) }
        return now >= opens && now < giveUpTime ? .busy(window) : .none
    }

    /// When the AUX_SYNC_IND listened for would have ended, had it come at the window's close.
    private var giveUpTime: Microseconds {
        closes + Airtime.duration(pduOctets: ExtendedAdvertisingTiming.longestPDUOctets, phy: phy)
    }

    /// When the sync next needs the timer: its window's opening, or giving a packet up.
    func nextDeadline(after now: Microseconds) -> Microseconds {
        if let chain { return chain.giveUpAt }
        return now < opens ? opens : giveUpTime
    }

    /// The timer: a packet that did not come.
    mutating func timer(at now: Microseconds) -> [Outcome] {
        if let pending = chain {
            guard now >= pending.giveUpAt else { return [] }
            // A lost AUX_CHAIN_IND: the event's data is truncated (§4.4.3.5).
            chain = nil
            finishEvent(received: true)
            return [.report([], .incompleteTruncated)]
        }
        guard now >= giveUpTime else { return [] }
        finishEvent(received: false)
        if !isEstablished, counter &- firstCounter >= Self.establishingEvents { return [.failedToEstablish] }
        if isEstablished, now - lastHeard >= timeout { return [.lost] }
        return []
    }

    /// A packet with the train's access address.
    mutating func receive(_ payload: LL.ExtendedAdvertisingPayload, _ transmission: RadioTransmission, at now: Microseconds) -> [Outcome] {
        let expected = window
        guard transmission.channel == expected.channel, transmission.start >= expected.opens,
              transmission.start <= expected.closes ?? transmission.start
        else { return [] }
        var outcomes: [Outcome] = []
        if chain == nil {
            eventStart = transmission.start
            eventCounter = counter
            receivedOctets = 0
            if !isEstablished {
                isEstablished = true
                outcomes.append(.established)
            }
        }
        lastHeard = now
        receivedOctets += payload.data.count
        if receivedOctets > Self.longestEventData {
            chain = nil
            finishEvent(received: true)
            return outcomes + [.report([], .incompleteTruncated)]
        }
        let pieces = Self.pieces(payload.data)
        if let pointer = payload.auxiliaryPointer, pointer.channelIndex <= ExtendedScanner.highestSecondaryChannel {
            let start = transmission.start + pointer.offsetMicroseconds
            let phy = RadioPHY(pointer.phy)
            chain = (ReceiverWindow(channel: pointer.channelIndex, phy: phy, accessAddress: accessAddress, opens: start,
                                    closes: start + pointer.offsetUnit.microseconds),
                     start + pointer.offsetUnit.microseconds + Airtime.duration(pduOctets: ExtendedAdvertisingTiming.longestPDUOctets, phy: phy))
            return outcomes + pieces.filter { !$0.isEmpty }.map { .report($0, .incompleteMoreToCome) }
        }
        chain = nil
        finishEvent(received: true)
        return outcomes + pieces.enumerated().map { .report($1, $0 == pieces.count - 1 ? .complete : .incompleteMoreToCome) }
    }

    /// Moves to the next AUX_SYNC_IND listened for: Skip events on after a received one,
    /// the very next after a missed one.
    private mutating func finishEvent(received: Bool) {
        if received {
            let step = UInt16(clamping: Int(skip) + 1)
            counter = eventCounter &+ step
            opens = eventStart + Microseconds(step) * interval - Self.windowWidening
        } else {
            counter &+= 1
            let anchor = isEstablished ? opens + Self.windowWidening : opens
            opens = anchor + interval - (isEstablished ? Self.windowWidening : 0)
        }
        closes = isEstablished ? opens + 2 * Self.windowWidening : closes + interval
    }

    /// `data` in pieces of at most 247 octets; one empty piece for no data.
    private static func pieces(_ data: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        let size = HCI.LEPeriodicAdvertisingReport.maximumDataLength
        guard !data.isEmpty else { return [[]] }
        return stride(from: data.startIndex, to: data.endIndex, by: size).map { data[$0 ..< min($0 + size, data.endIndex)] }
    }
}
