import BLEWire

/// One advertisement a scripted scanner's controller reported, from an LE Advertising Report
/// (legacy scan, Core 5.4, Vol 4, Part E, §7.7.65.2) or LE Extended Advertising Reports
/// (extended scan, §7.7.65.13, joined by ``Reassembly``), or one event of a periodic train
/// (§7.7.65.15): what observers and gateways read, whichever way the device scans.
public struct ScannedAdvertisement: Hashable, Sendable {
    /// The advertiser's address, with its kind.
    public var address: BluetoothAddress
    /// The RSSI in dBm, `nil` when the controller had none.
    public var rssi: Int8?
    /// The advertising data as reported: every fragment of an extended report, joined.
    public var data: [UInt8]
    /// The PHY the advertisement's primary PDU came on (LE 1M for a legacy report; for a
    /// periodic event, the train's PHY).
    public var primaryPHY: HCI.PHY
    /// Whether the data is cut short (§7.7.65.13 data status "incomplete, truncated": the
    /// controller missed an AUX_CHAIN_IND): ``data`` is only the part that arrived.
    public var truncated: Bool
    /// Whether it is a scan response (AUX_SCAN_RSP and its chain, or SCAN_RSP) rather than
    /// the advertising data.
    public var scanResponse: Bool
    /// Whether it is one event of a periodic train the scanner is synchronised to (LE Periodic
    /// Advertising Reports, §7.7.65.15) rather than extended or legacy advertising.
    public var periodic: Bool

    /// An advertisement with every field.
    public init(address: BluetoothAddress, rssi: Int8?, data: [UInt8], primaryPHY: HCI.PHY = .le1M,
                truncated: Bool = false, scanResponse: Bool = false, periodic: Bool = false) {
        self.address = address
        self.rssi = rssi
        self.data = data
        self.primaryPHY = primaryPHY
        self.truncated = truncated
        self.scanResponse = scanResponse
        self.periodic = periodic
    }

    /// The advertisements of an LE Advertising Report (§7.7.65.2), e.g. one a controller
    /// handed over as a value (``ScenarioReports/values``).
    public static func reports(in report: HCI.LEAdvertisingReport) -> [ScannedAdvertisement] {
        report.reports.map(ScannedAdvertisement.init)
    }

    /// One advertisement of an LE Advertising Report (§7.7.65.2).
    public init(_ report: HCI.LEAdvertisingReport.Report) {
        self.init(address: report.address, rssi: report.availableRSSI, data: Array(report.data),
                  scanResponse: report.eventType == .scanRsp)
    }
}
