import BLEHost

/// One advertiser as a scan sees it: its advertising data and scan response merged, as GAP
/// merges them (Core 5.4, Vol 3, Part C, §11: the scan response extends the advertising
/// data), with the convenience accessors of Core Bluetooth's advertisement dictionary.
public struct Advertisement: Hashable, Sendable {
    /// The advertiser's address, with its type (public or random, Vol 6, Part B, §1.3).
    public var address: BluetoothAddress
    /// The received signal strength of the latest report, in dBm; `nil` when the
    /// controller had none (127, Vol 4, Part E, §7.7.65.2).
    public var rssi: Int?
    /// Whether the advertiser accepts connections (ADV_IND or ADV_DIRECT_IND).
    public var connectable: Bool
    /// The advertising data then the scan response, decoded; a part that is malformed is
    /// left out here but kept in the raw bytes.
    public var data: AdvertisingData
    /// The latest advertising data as received.
    public var advertisingBytes: [UInt8]
    /// The latest scan response data as received (empty until one arrives).
    public var scanResponseBytes: [UInt8]
    /// When this report was received, since the scan started.
    public var time: Duration

    /// An advertisement with every value given.
    public init(
        address: BluetoothAddress, rssi: Int?, connectable: Bool, data: AdvertisingData, advertisingBytes: [UInt8] = [],
        scanResponseBytes: [UInt8] = [], time: Duration = .zero
    ) {
        self.address = address
        self.rssi = rssi
        self.connectable = connectable
        self.data = data
        self.advertisingBytes = advertisingBytes
        self.scanResponseBytes = scanResponseBytes
        self.time = time
    }

    /// GAP's report, timed from `scanStart` (both in the host's microseconds).
    init(_ report: GAPAdvertisement, scanStart: HostTime) {
        self.init(
            address: report.address, rssi: report.rssi == 127 ? nil : Int(report.rssi), connectable: report.connectable,
            data: report.data, advertisingBytes: report.advertisingBytes, scanResponseBytes: report.scanResponseBytes,
            time: .microseconds(max(0, report.time - scanStart)))
    }

    /// The complete local name, else the shortened one (Supplement, Part A, §1.2).
    public var localName: String? { data.localName }

    /// Every service UUID listed, complete or incomplete, 16-, 32- and 128-bit
    /// (Supplement, Part A, §1.1); empty if none.
    public var serviceUUIDs: [BluetoothUUID] { data.serviceUUIDs ?? [] }

    /// The manufacturer specific data: company identifier and the vendor's octets
    /// (Supplement, Part A, §1.4).
    public var manufacturerData: AdvertisingData.ManufacturerData? { data.manufacturerData }

    /// Service data by service UUID (Supplement, Part A, §1.11); the first entry wins when
    /// a UUID repeats.
    public var serviceData: [BluetoothUUID: [UInt8]] {
        var result: [BluetoothUUID: [UInt8]] = [:]
        for entry in data.serviceData ?? [] where result[entry.uuid] == nil { result[entry.uuid] = Array(entry.data) }
        return result
    }

    /// The advertised TX Power Level in dBm (Supplement, Part A, §1.5), to estimate path
    /// loss as `txPower - rssi`.
    public var txPower: Int? { data.txPowerLevel.map(Int.init) }
}
