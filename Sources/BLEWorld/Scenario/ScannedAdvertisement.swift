import BLEWire

/// One advertisement a scripted scanner's controller reported, from an LE Advertising Report
/// (legacy scan, Core 5.4, Vol 4, Part E, §7.7.65.2) or an LE Extended Advertising Report
/// (extended scan, §7.7.65.13): what observers and gateways read, whichever way the device scans.
public struct ScannedAdvertisement: Hashable, Sendable {
    /// The advertiser's address, with its kind.
    public var address: BluetoothAddress
    /// The RSSI in dBm, `nil` when the controller had none.
    public var rssi: Int8?
    /// The advertising data as reported.
    public var data: [UInt8]
    /// The PHY the advertisement's primary PDU came on (LE 1M for a legacy report).
    public var primaryPHY: HCI.PHY

    /// An advertisement with every field.
    public init(address: BluetoothAddress, rssi: Int8?, data: [UInt8], primaryPHY: HCI.PHY = .le1M) {
        self.address = address
        self.rssi = rssi
        self.data = data
        self.primaryPHY = primaryPHY
    }

    /// The advertisements `event` reports, or `nil` when it is no advertising report. Of an
    /// extended report only entries whose data status is complete count: a fragment marked
    /// "more to come" or "truncated" is not data an observer can read (an iBeacon or
    /// Eddystone frame always fits one report, §7.7.65.13 carries up to 229 octets).
    public static func reports(in event: HCI.Event) -> [ScannedAdvertisement]? {
        switch event {
        case let .leMeta(.advertisingReport(report)):
            return reports(in: report)
        case let .leMeta(.extendedAdvertisingReport(report)):
            return report.reports.filter { $0.eventType.dataStatus == .complete }.map {
                ScannedAdvertisement(address: $0.address, rssi: $0.availableRSSI, data: Array($0.data), primaryPHY: $0.primaryPHY)
            }
        default:
            return nil
        }
    }

    /// The advertisements of an LE Advertising Report (§7.7.65.2), e.g. one a controller
    /// handed over as a value (``ScenarioReports/values``).
    public static func reports(in report: HCI.LEAdvertisingReport) -> [ScannedAdvertisement] {
        report.reports.map { ScannedAdvertisement(address: $0.address, rssi: $0.availableRSSI, data: Array($0.data)) }
    }
}
