import BLEWire

/// What to synchronise to: one advertiser's periodic train, named by its address and the
/// SID of the set that carries it (Core 5.4, Vol 4, Part E, §7.8.67; Vol 6, Part B, §4.4.3.5).
public struct GAPPeriodicSyncRequest: Hashable, Sendable {
    /// The advertiser's address, as an extended scan reports it.
    public var advertiser: BluetoothAddress
    /// Public (0x00) or random (0x01): Advertiser_Address_Type.
    public var advertiserAddressType: HCI.AddressType
    /// The set's Advertising_SID (0x00–0x0F).
    public var sid: UInt8
    /// How many periodic events the controller may skip after one it received (0x0000–0x01F3).
    public var skip: UInt16
    /// Sync_Timeout in units of 10 ms (0x000A–0x4000, 100 ms to 163.84 s): silence after
    /// which the controller gives the sync up with LE Periodic Advertising Sync Lost.
    public var syncTimeout: UInt16
    /// How long GAP waits for the train to be found (the extended scan must hear the set's
    /// AUX_ADV_IND with SyncInfo), in microseconds; then it sends Create Sync Cancel and the
    /// request fails with ``GAPError/periodicTrainNotFound``.
    public var findTimeout: HostTime

    /// The largest Skip (§7.8.67).
    public static let largestSkip: UInt16 = 0x01F3
    /// Sync_Timeout's range, in units of 10 ms (§7.8.67).
    public static let syncTimeoutRange: ClosedRange<UInt16> = 0x000A ... 0x4000

    /// A request for `advertiser`'s set `sid`; by default no events skipped, the sync lost
    /// after 2 s of silence and the train looked for during 10 s.
    public init(
        advertiser: BluetoothAddress, advertiserAddressType: HCI.AddressType = .public, sid: UInt8, skip: UInt16 = 0,
        syncTimeout: UInt16 = 200, findTimeout: HostTime = 10_000_000
    ) {
        self.advertiser = advertiser
        self.advertiserAddressType = advertiserAddressType
        self.sid = sid
        self.skip = skip
        self.syncTimeout = syncTimeout
        self.findTimeout = findTimeout
    }

    /// Why the controller would refuse these parameters (§7.8.67), or `nil` when it would
    /// take them: a sentence naming the value and what is accepted.
    public var invalidity: String? {
        if sid > 0x0F { return "SID \(sid) is above 15 (0x0F): an advertising set's SID has 4 bits" }
        if skip > Self.largestSkip { return "a skip of \(skip) events is above 499 (0x01F3)" }
        if !Self.syncTimeoutRange.contains(syncTimeout) {
            return "a sync timeout of \(Int(syncTimeout) * 10) ms is outside 100 ms to 163,840 ms (0x000A–0x4000 units of 10 ms)"
        }
        if advertiserAddressType != .public, advertiserAddressType != .random {
            return "the advertiser's address type must be public or random"
        }
        return nil
    }
}

/// A sync the controller established (LE Periodic Advertising Sync Established, Core 5.4,
/// Vol 4, Part E, §7.7.65.14): the train that is followed and how often it comes.
public struct GAPPeriodicSync: Hashable, Sendable {
    /// Sync_Handle: names the sync in its reports and in Terminate Sync.
    public var handle: UInt16
    /// The advertiser's address.
    public var advertiser: BluetoothAddress
    /// The advertiser's address type.
    public var advertiserAddressType: HCI.AddressType
    /// The set's SID.
    public var sid: UInt8
    /// The PHY the train is sent on.
    public var phy: HCI.PHY
    /// The periodic interval, in units of 1.25 ms.
    public var interval: UInt16
    /// The advertiser's sleep clock accuracy, from SyncInfo.
    public var clockAccuracy: HCI.ClockAccuracy

    /// A sync with every value given.
    public init(
        handle: UInt16, advertiser: BluetoothAddress, advertiserAddressType: HCI.AddressType, sid: UInt8, phy: HCI.PHY,
        interval: UInt16, clockAccuracy: HCI.ClockAccuracy
    ) {
        self.handle = handle
        self.advertiser = advertiser
        self.advertiserAddressType = advertiserAddressType
        self.sid = sid
        self.phy = phy
        self.interval = interval
        self.clockAccuracy = clockAccuracy
    }
}

/// One periodic event's data, joined from the reports it came in (LE Periodic Advertising
/// Report, Core 5.4, Vol 4, Part E, §7.7.65.15: Data_Status "more to come" until "complete"
/// or "truncated").
public struct GAPPeriodicReport: Hashable, Sendable {
    /// The sync the data came on.
    public var syncHandle: UInt16
    /// The transmit power the advertiser stated, in dBm, if it did.
    public var txPower: Int8?
    /// The RSSI of the event's last packet, in dBm, if the controller measured it.
    public var rssi: Int8?
    /// The event's data: its AD structures, encoded.
    public var data: [UInt8]
    /// Whether the controller gave up on the rest (an AUX_CHAIN_IND it missed), or the data
    /// passed 1,650 octets: ``data`` is the part that arrived.
    public var truncated: Bool

    /// A report with every value given.
    public init(syncHandle: UInt16, txPower: Int8?, rssi: Int8?, data: [UInt8], truncated: Bool) {
        self.syncHandle = syncHandle
        self.txPower = txPower
        self.rssi = rssi
        self.data = data
        self.truncated = truncated
    }
}

/// A Create Sync GAP sent and that has not ended yet.
struct GAPPendingPeriodicSync: Sendable {
    var request: GAPPeriodicSyncRequest
    /// When to give up looking for the train; `nil` once cancelled.
    var deadline: HostTime?
    /// Why GAP cancelled the request, once it sent Create Sync Cancel.
    var cancelReason: GAPError?
}
