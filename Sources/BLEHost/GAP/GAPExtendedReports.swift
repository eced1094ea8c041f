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
        let type = entry.eventType
        guard type.dataStatus == .complete, entry.data.count <= AdvertisingData.legacyMaximumLength else { return nil }
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
