import BLEWire

/// One advertiser as a scan sees it: its advertisement and scan response merged (Core 5.4,
/// Vol 3, Part C, §11: the scan response extends the advertising data).
public struct GAPAdvertisement: Hashable, Sendable {
    /// The advertiser's address.
    public var address: BluetoothAddress
    /// The address type the controller reported.
    public var addressType: HCI.AddressType
    /// The RSSI of the latest report with one, in dBm (127: never available).
    public var rssi: Int8
    /// Whether the latest advertisement was connectable (ADV_IND or ADV_DIRECT_IND).
    public var connectable: Bool
    /// The advertising data then the scan response data, decoded leniently: a part that is
    /// malformed is left out of this view but kept in the raw bytes.
    public var data: AdvertisingData
    /// The latest advertising data, as received.
    public var advertisingBytes: [UInt8]
    /// The latest scan response data, as received (empty until one arrives).
    public var scanResponseBytes: [UInt8]
    /// When the device was first seen in this scan.
    public var firstSeen: HostTime
    /// When this report was received.
    public var time: HostTime
    /// What an extended scan heard of it (PHYs, set, stated power, truncation); `nil` from a
    /// legacy scan.
    public var extended: GAPExtendedHearing?

    /// An advertisement with every value given.
    public init(
        address: BluetoothAddress, addressType: HCI.AddressType, rssi: Int8, connectable: Bool, data: AdvertisingData,
        advertisingBytes: [UInt8], scanResponseBytes: [UInt8], firstSeen: HostTime, time: HostTime
    ) {
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.connectable = connectable
        self.data = data
        self.advertisingBytes = advertisingBytes
        self.scanResponseBytes = scanResponseBytes
        self.firstSeen = firstSeen
        self.time = time
    }

    /// The advertising data and scan response merged, skipping a part that does not decode.
    static func merge(_ advertising: [UInt8], _ scanResponse: [UInt8]) -> AdvertisingData {
        var structures: [AdvertisingData.Structure] = []
        for bytes in [advertising, scanResponse] {
            do throws(WireError) {
                structures += try AdvertisingData(decoding: bytes).structures
            } catch {
                continue
            }
        }
        return AdvertisingData(structures: structures)
    }
}

/// Host-side duplicate filtering for one scan: the controller's filter is off, and a device
/// is reported when first seen and again whenever its advertising or scan response data
/// changes — or on every report when duplicates are allowed. A service filter hides
/// devices whose merged data lists none of the wanted services.
///
/// The table of devices seen is bounded (docs/limits.md): past ``capacity`` addresses —
/// a street of phones rotating private addresses fills it in hours — the least recently
/// heard eighth is forgotten at once, and a forgotten device is reported again as new
/// when next heard. ``forgottenDevices`` counts them.
struct GAPAdvertisementFilter: Sendable {
    /// Devices remembered per scan unless configured otherwise.
    static let defaultCapacity = 4_096

    private struct Record: Sendable {
        var advertisement: GAPAdvertisement
        /// The bytes last reported, to notice a change.
        var reported: (advertising: [UInt8], scanResponse: [UInt8])?
        /// When the device was last heard, as a report sequence number (unique).
        var lastHeard: UInt64 = 0
    }

    var allowDuplicates: Bool
    var serviceUUIDs: [BluetoothUUID]
    /// The most devices remembered at once.
    var capacity = GAPAdvertisementFilter.defaultCapacity
    /// Devices forgotten to stay within ``capacity``.
    private(set) var forgottenDevices = 0
    /// Looked up by address; iterated only to evict, in ``Record/lastHeard`` order, so its
    /// order cannot reach an output.
    private var records: [BluetoothAddress: Record] = [:]
    private var reports: UInt64 = 0

    /// How many devices the filter remembers now.
    var rememberedDevices: Int { records.count }

    init(allowDuplicates: Bool, serviceUUIDs: [BluetoothUUID]) {
        self.allowDuplicates = allowDuplicates
        self.serviceUUIDs = serviceUUIDs
    }

    /// Takes one report (with what an extended scan heard of it); returns the merged
    /// advertisement if it should be reported now.
    mutating func add(_ report: HCI.LEAdvertisingReport.Report, extended: GAPExtendedHearing? = nil, at now: HostTime) -> GAPAdvertisement? {
        if records[report.address] == nil, records.count >= capacity { forgetLeastRecentlyHeard() }
        reports += 1
        var record = records[report.address] ?? Record(advertisement: GAPAdvertisement(
            address: report.address, addressType: report.addressType, rssi: report.rssi, connectable: false,
            data: AdvertisingData(structures: []), advertisingBytes: [], scanResponseBytes: [], firstSeen: now, time: now))
        var advertisement = record.advertisement
        advertisement.time = now
        if let extended { advertisement.extended = extended }
        advertisement.addressType = report.addressType
        if let rssi = report.availableRSSI { advertisement.rssi = rssi }
        switch report.eventType {
        case .scanRsp:
            advertisement.scanResponseBytes = Array(report.data)
        case .advInd, .advDirectInd:
            advertisement.connectable = true
            advertisement.advertisingBytes = Array(report.data)
        case .advScanInd, .advNonconnInd:
            advertisement.connectable = false
            advertisement.advertisingBytes = Array(report.data)
        }
        advertisement.data = GAPAdvertisement.merge(advertisement.advertisingBytes, advertisement.scanResponseBytes)
        record.advertisement = advertisement
        record.lastHeard = reports
        defer { records[report.address] = record }

        let changed = record.reported.map {
            $0.advertising != advertisement.advertisingBytes || $0.scanResponse != advertisement.scanResponseBytes
        } ?? true
        guard changed || allowDuplicates, matchesServices(advertisement.data) else { return nil }
        record.reported = (advertisement.advertisingBytes, advertisement.scanResponseBytes)
        return advertisement
    }

    /// Forgets the least recently heard eighth of the table (at least one device), so
    /// eviction costs one sort per ``capacity``/8 new devices rather than one per device.
    private mutating func forgetLeastRecentlyHeard() {
        let count = max(capacity / 8, 1)
        let oldest = records.map { ($0.value.lastHeard, $0.key) }.sorted { $0.0 < $1.0 }.prefix(count)
        for (_, address) in oldest { records[address] = nil }
        forgottenDevices += oldest.count
    }

    private func matchesServices(_ data: AdvertisingData) -> Bool {
        guard !serviceUUIDs.isEmpty else { return true }
        var listed: [BluetoothUUID] = []
        for uuids in [data.serviceUUIDs, data.serviceData?.map(\.uuid)] { listed += uuids ?? [] }
        return listed.contains { serviceUUIDs.contains($0) }
    }
}
