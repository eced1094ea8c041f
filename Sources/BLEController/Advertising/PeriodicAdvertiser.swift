import BLEWire

/// One set's periodic train on the air (Core 5.4, Vol 6, Part B, §4.4.2.12): an
/// AUX_SYNC_IND every periodic interval on a secondary channel, with AUX_CHAIN_INDs T_MAFS
/// apart for the data that does not fit. The train has its own access address and CRC
/// initial value, drawn from the controller's seeded generator when it starts, and picks
/// each event's channel with Channel Selection Algorithm #2 over the train's access address
/// and the event counter paEventCounter (§4.5.8.3, as §4.4.2.12 requires); the chain's
/// AUX_CHAIN_INDs go on channels drawn from the same generator, as an extended set's do.
///
/// The train keeps its schedule on its own: it is not moved around its set's extended
/// advertising events (which a real controller would interleave with it).
struct PeriodicAdvertiser: Sendable {
    /// The secondary channels the train uses: all 37 (bit n for channel n).
    static let channelMap: UInt64 = 0x1F_FFFF_FFFF
    /// The sleep clock accuracy SyncInfo reports: 50 ppm (HCI Clock_Accuracy 0x05).
    static let sleepClockAccuracy = HCI.ClockAccuracy.ppm50

    let handle: UInt8
    let setID: UInt8
    /// The interval in units of 1.25 ms, as SyncInfo and Sync Established carry it.
    let intervalUnits: UInt16
    let interval: Microseconds
    let phy: RadioPHY
    let accessAddress: UInt32
    let crcInit: UInt32
    /// Whether the AUX_SYNC_IND and AUX_CHAIN_INDs carry the ADI (Enable bit 1, §7.8.63).
    let includesDataInfo: Bool
    /// The TxPower field, when the host asked for it (Periodic_Advertising_Properties bit 6).
    let advertisedTxPower: Int8?
    let txPowerDBm: Double
    private let channels: ChannelSelectionAlgorithm2
    /// paEventCounter of the next event.
    private(set) var eventCounter: UInt16 = 0
    /// When the next AUX_SYNC_IND starts.
    private(set) var nextEvent: Microseconds

    /// A train whose first AUX_SYNC_IND starts at `start`.
    init(
        handle: UInt8, setID: UInt8, intervalUnits: UInt16, phy: RadioPHY, includesDataInfo: Bool,
        advertisedTxPower: Int8?, txPowerDBm: Double, start: Microseconds, random: inout ControllerRandom
    ) {
        self.handle = handle
        self.setID = setID
        self.intervalUnits = intervalUnits
        interval = Microseconds(intervalUnits) * LinkTiming.unit1250
        self.phy = phy
        self.includesDataInfo = includesDataInfo
        self.advertisedTxPower = advertisedTxPower
        self.txPowerDBm = txPowerDBm
        accessAddress = UInt32(truncatingIfNeeded: random.next())
        crcInit = UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF
        channels = ChannelSelectionAlgorithm2(accessAddress: accessAddress, channelMap: Self.channelMap)
        nextEvent = start
    }

    /// The channel of the AUX_SYNC_IND of event `counter` (CSA #2, §4.5.8.3).
    func channel(event counter: UInt16) -> UInt8 { channels.channel(counter: counter) }

    /// The SyncInfo an AUX_ADV_IND starting at `packetStart` carries: the first AUX_SYNC_IND
    /// that starts after it, rounded down to the offset unit as §2.3.4.6 allows (the
    /// scanner widens its window by one unit); `nil` when the offset is out of reach.
    func syncInfo(forPacketAt packetStart: Microseconds) -> LL.SyncInfo? {
        var counter = eventCounter
        var start = nextEvent
        while start <= packetStart {
            start += interval
            counter &+= 1
        }
        guard let offset = LL.SyncInfo.offset(start - packetStart) else { return nil }
        return LL.SyncInfo(
            syncPacketOffset: offset.offset, offsetUnit: offset.unit, offsetAdjust: offset.adjust, interval: intervalUnits,
            channelMap: Self.channelMap, sleepClockAccuracy: Self.sleepClockAccuracy.rawValue, accessAddress: accessAddress,
            crcInit: crcInit, eventCounter: counter)
    }

    /// The timer: sends the event that is due with `data` and moves to the next one.
    mutating func timer(at now: Microseconds, data: [UInt8], dataID: UInt16, random: inout ControllerRandom) -> [RadioTransmission] {
        guard now >= nextEvent else { return [] }
        let lengths = Self.fragmentLengths(
            dataLength: data.count, includesDataInfo: includesDataInfo, includesTxPower: advertisedTxPower != nil)
        var packets: [RadioTransmission] = []
        var start = nextEvent
        var channel = channel(event: eventCounter)
        var offset = 0
        for (index, length) in lengths.enumerated() {
            let last = index == lengths.count - 1
            var payload = LL.ExtendedAdvertisingPayload(
                dataInfo: includesDataInfo ? .init(dataID: dataID, setID: setID) : nil,
                txPower: index == 0 ? advertisedTxPower : nil, data: data[offset ..< offset + length][...])
            offset += length
            var nextChannel = channel
            var nextStart = start
            if !last {
                payload.auxiliaryPointer = ExtendedAdvertisingTiming.pointer(channel: 0, offset: 0, phy: phy)
                nextStart = start + ExtendedAdvertisingTiming.minimumAuxiliaryOffset(
                    after: Airtime.duration(pduOctets: 2 + payload.encodedCount, phy: phy))
                nextChannel = UInt8.random(in: 0 ... 36, using: &random)
                payload.auxiliaryPointer = ExtendedAdvertisingTiming.pointer(channel: nextChannel, offset: nextStart - start, phy: phy)
            }
            packets.append(RadioTransmission(
                channel: channel, phy: phy, accessAddress: accessAddress, pdu: payload.pdu.encoded(), start: start,
                txPowerDBm: txPowerDBm))
            start = nextStart
            channel = nextChannel
        }
        nextEvent += interval
        eventCounter &+= 1
        return packets
    }

    /// The AdvData of each PDU of a periodic event carrying `dataLength` octets: the
    /// AUX_SYNC_IND first, then AUX_CHAIN_INDs; each but the last carries a 3-octet AuxPtr,
    /// each holds as much as fits in 255 octets of payload (the Extended Header Length octet,
    /// and the flags octet when any field is present, included).
    static func fragmentLengths(dataLength: Int, includesDataInfo: Bool, includesTxPower: Bool) -> [Int] {
        var lengths: [Int] = []
        var remaining = dataLength
        repeat {
            let fields = (includesDataInfo ? 2 : 0) + (lengths.isEmpty && includesTxPower ? 1 : 0)
            let lastHeader = 1 + (fields > 0 ? 1 + fields : 0)
            let chainedHeader = 1 + 1 + fields + 3
            let max = LL.ExtendedAdvertisingPayload.maximumLength
            let taken = remaining <= max - lastHeader ? remaining : max - chainedHeader
            lengths.append(taken)
            remaining -= taken
        } while remaining > 0
        return lengths
    }

    /// The airtime of one periodic event carrying `dataLength` octets on `phy`, from the
    /// start of the AUX_SYNC_IND to the end of the last AUX_CHAIN_IND.
    static func eventDuration(dataLength: Int, includesDataInfo: Bool, includesTxPower: Bool, phy: RadioPHY) -> Microseconds {
        let lengths = fragmentLengths(dataLength: dataLength, includesDataInfo: includesDataInfo, includesTxPower: includesTxPower)
        var total: Microseconds = 0
        for (index, length) in lengths.enumerated() {
            let fields = (includesDataInfo ? 2 : 0) + (index == 0 && includesTxPower ? 1 : 0) + (index < lengths.count - 1 ? 3 : 0)
            let airtime = Airtime.duration(pduOctets: 2 + 1 + (fields > 0 ? 1 + fields : 0) + length, phy: phy)
            total += index < lengths.count - 1 ? ExtendedAdvertisingTiming.minimumAuxiliaryOffset(after: airtime) : airtime
        }
        return total
    }
}
