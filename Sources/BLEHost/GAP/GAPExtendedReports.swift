import BLEWire

extension GAPAdvertisementFilter {
    /// The legacy report an LE Extended Advertising Report entry (Core 5.4, Vol 4, Part E,
    /// §7.7.65.13) stands for, or `nil` for one GAP's legacy scanning cannot use (incomplete
    /// data, or more than a legacy PDU's 31 octets).
    ///
    /// Why: a controller may send extended reports although the host scans with the legacy
    /// commands. Stock Bumble does (interop NOTES.md §3.13 #6), and without the legacy bit:
    /// then the connectable and scan-response bits decide.
    static func legacyReport(_ entry: HCI.LEExtendedAdvertisingReport.Report) -> HCI.LEAdvertisingReport.Report? {
        guard entry.eventType.dataStatus == .complete, entry.data.count <= AdvertisingData.legacyMaximumLength else { return nil }
        return report(entry)
    }

    /// An extended report entry in the shape the filter merges, whatever its length: its
    /// kind from the event type's bits (a scan response, connectable or not).
    static func report(_ entry: HCI.LEExtendedAdvertisingReport.Report) -> HCI.LEAdvertisingReport.Report? {
        let type = entry.eventType
        let legacyType: HCI.LEAdvertisingReport.EventType
        if type.isScanResponse {
            legacyType = .scanRsp
        } else if type.isConnectable {
            legacyType = type.isDirected ? .advDirectInd : .advInd
        } else {
            legacyType = type.isScannable ? .advScanInd : .advNonconnInd
        }
        let rssi = entry.availableRSSI ?? HCI.LEAdvertisingReport.rssiNotAvailable
        return HCI.LEAdvertisingReport.Report(
            eventType: legacyType, addressType: entry.addressType, address: entry.address, data: entry.data, rssi: rssi)
    }
}

/// What an extended scan adds to an advertisement (Core 5.4, Vol 4, Part E, §7.7.65.13): the
/// PHYs it came on, its set, the power it was sent at, and whether its data arrived whole.
public struct GAPExtendedHearing: Hashable, Sendable {
    /// The PHY of ADV_EXT_IND (or of the legacy PDU).
    public var primaryPHY: HCI.PHY
    /// The PHY of the AUX PDUs, `nil` when there were none (a legacy PDU).
    public var secondaryPHY: HCI.PHY?
    /// The advertising set's SID (0x00–0x0F; 0xFF for none).
    public var advertisingSID: UInt8
    /// The transmit power the advertiser stated, in dBm, if it did.
    public var txPower: Int8?
    /// Whether the PDU was a legacy one heard by the extended scan.
    public var legacy: Bool
    /// Whether the controller gave up on the rest of the data (an AUX_CHAIN_IND it missed):
    /// the data is the part that arrived.
    public var truncated: Bool

    /// What `entry`, the last fragment of its advertisement, says; `truncated` as the reassembly found.
    init(entry: HCI.LEExtendedAdvertisingReport.Report, truncated: Bool) {
        primaryPHY = entry.primaryPHY
        secondaryPHY = entry.secondaryPHY
        advertisingSID = entry.advertisingSID
        txPower = entry.availableTxPower
        legacy = entry.eventType.isLegacy
        self.truncated = truncated
    }
}

/// Joins the fragments an extended scan's reports carry (Core 5.4, Vol 4, Part E, §7.7.65.13:
/// Data_Status 01 "incomplete, more data to come" until 00 "complete" or 10 "incomplete,
/// truncated"), per advertiser, set and kind (advertisement or scan response).
///
/// Bounded: at most ``pendingLimit`` advertisements wait at once (the oldest is dropped and
/// counted when another starts), and one's data stops at ``maximumLength`` octets, past which
/// it is reported truncated.
struct GAPExtendedReassembly: Sendable {
    private struct Key: Hashable, Sendable {
        var address: BluetoothAddress
        var addressType: HCI.AddressType
        var sid: UInt8
        var scanResponse: Bool
    }

    /// The most advertisements waiting for more fragments at once.
    static let pendingLimit = 64
    /// The most data one advertisement may have (Vol 6, Part B, §2.3.4.9: 1,650 octets).
    static let maximumLength = 1_650

    private var pending: [Key: [UInt8]] = [:]
    private var order: [Key] = []
    /// Advertisements dropped unfinished because ``pendingLimit`` were waiting.
    private(set) var dropped = 0

    /// Takes one report entry; returns the whole advertisement (the last fragment's fields,
    /// all the data) once its last fragment came, and whether it was cut short.
    mutating func add(_ entry: HCI.LEExtendedAdvertisingReport.Report) -> (entry: HCI.LEExtendedAdvertisingReport.Report, truncated: Bool)? {
        let key = Key(address: entry.address, addressType: entry.addressType, sid: entry.advertisingSID,
                      scanResponse: entry.eventType.isScanResponse)
        var data = pending.removeValue(forKey: key) ?? []
        order.removeAll { $0 == key }
        data += entry.data
        let overlong = data.count > Self.maximumLength
        if overlong { data.removeLast(data.count - Self.maximumLength) }
        switch entry.eventType.dataStatus {
        case .incompleteMoreToCome? where !overlong:
            if pending.count >= Self.pendingLimit, let oldest = order.first {
                order.removeFirst()
                pending[oldest] = nil
                dropped += 1
            }
            pending[key] = data
            order.append(key)
            return nil
        default:
            var whole = entry
            whole.data = data[...]
            return (whole, overlong || entry.eventType.dataStatus != .complete)
        }
    }
}
