import BLEWire

/// Merges a device's advertisement and scan response into one record and decides when to
/// report it again: Core Bluetooth's behaviour without the allow-duplicates option is to
/// report a device once and again whenever its data changes; with it, every report.
struct AdvertisementMerger {
    /// What is known of one advertiser.
    struct Record {
        var address: BluetoothAddress
        var addressType: HCI.AddressType
        var rssi: Int8
        var connectable: Bool
        var advertisingData: [UInt8] = []
        var scanResponse: [UInt8] = []
        var firstSeen: Int64
        var lastSeen: Int64
        /// The data last reported, to notice changes.
        var reported: ([UInt8], [UInt8])?

        /// Advertising data then scan response, decoded leniently (malformed ones are skipped).
        var merged: AdvertisingData {
            var structures: [AdvertisingData.Structure] = []
            for bytes in [advertisingData, scanResponse] {
                if let data = try? AdvertisingData(decoding: bytes) { structures += data.structures }
            }
            return AdvertisingData(structures: structures)
        }
    }

    private(set) var records: [BluetoothAddress: Record] = [:]
    /// Report every advertisement, not only new or changed ones.
    var allowDuplicates: Bool

    /// Takes one report received at `time` (µs since the scan started); returns the merged
    /// record if it should be reported now.
    mutating func add(_ report: HCI.LEAdvertisingReport.Report, at time: Int64) -> Record? {
        let key = report.address
        var record = records[key] ?? Record(
            address: report.address, addressType: report.addressType, rssi: report.rssi, connectable: false,
            firstSeen: time, lastSeen: time)
        record.lastSeen = time
        if let rssi = report.availableRSSI { record.rssi = rssi }
        switch report.eventType {
        case .scanRsp:
            record.scanResponse = Array(report.data)
        case .advInd, .advDirectInd:
            record.connectable = true
            record.advertisingData = Array(report.data)
        case .advScanInd, .advNonconnInd:
            record.connectable = false
            record.advertisingData = Array(report.data)
        }
        let current = (record.advertisingData, record.scanResponse)
        let changed = record.reported.map { $0.0 != current.0 || $0.1 != current.1 } ?? true
        if changed || allowDuplicates { record.reported = current }
        records[key] = record
        return changed || allowDuplicates ? record : nil
    }
}
