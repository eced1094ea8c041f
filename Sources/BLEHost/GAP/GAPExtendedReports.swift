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
