import BLEWire

extension ScannedAdvertisement {
    /// How many extended advertisements one scanner put back together, and how.
    public struct Counts: Hashable, Sendable {
        /// Advertisements (or scan responses) whose every fragment arrived.
        public var whole = 0
        /// Advertisements whose data the controller reported truncated (a lost AUX_CHAIN_IND),
        /// or that outgrew 1,650 octets; reported with ``ScannedAdvertisement/truncated`` set.
        public var truncated = 0
        /// Advertisements given up unfinished because too many others were waiting for their
        /// rest (``BLEWire/HCI/LEExtendedAdvertisingReport/Reassembly/pendingLimit``).
        public var dropped = 0
        /// Periodic events whose every report arrived (truncated ones count in ``truncated``).
        public var periodic = 0

        /// Counts with every figure, zero by default.
        public init(whole: Int = 0, truncated: Int = 0, dropped: Int = 0, periodic: Int = 0) {
            self.whole = whole
            self.truncated = truncated
            self.dropped = dropped
            self.periodic = periodic
        }
    }

    /// One scanner's advertisements from the events its controller sends: a legacy report's
    /// entries as they are, and an extended scan's fragments joined per advertiser (address and
    /// type), set (SID) and kind with the stack's one reassembler,
    /// ``BLEWire/HCI/LEExtendedAdvertisingReport/Reassembly`` (Core 5.4, Vol 4, Part E,
    /// §7.7.65.13), the one the host's GAP uses too. An advertisement comes out once its last
    /// fragment arrived: whole, or marked truncated with the part that arrived, never as whole.
    ///
    /// It reads the periodic trains the scanner is synchronised to too: LE Periodic
    /// Advertising Sync Established names a sync's advertiser, and each sync's reports are
    /// joined into its events with ``BLEWire/HCI/LEPeriodicAdvertisingReport/Reassembly``
    /// (§7.7.65.14–§7.7.65.16), the host's periodic reassembler.
    public struct Reassembly: Sendable {
        private var fragments = HCI.LEExtendedAdvertisingReport.Reassembly()
        /// The advertiser and the report reassembly of each periodic sync, by sync handle.
        private var syncs: [UInt16: (advertiser: BluetoothAddress, phy: HCI.PHY, reports: HCI.LEPeriodicAdvertisingReport.Reassembly)] = [:]
        /// What this scanner's extended reports came to so far.
        public private(set) var counts = Counts()

        /// A reassembly waiting for nothing.
        public init() {}

        /// The advertisements `event` completes, or `nil` when it is no advertising report.
        /// - Parameter event: an event from the scanner's controller, in the order it came.
        /// - Returns: the legacy report's advertisements, or the extended ones whose last
        ///   fragment `event` carries (empty while they wait for more).
        public mutating func advertisements(in event: HCI.Event) -> [ScannedAdvertisement]? {
            switch event {
            case let .leMeta(.advertisingReport(report)):
                return ScannedAdvertisement.reports(in: report)
            case let .leMeta(.extendedAdvertisingReport(report)):
                var advertisements: [ScannedAdvertisement] = []
                for entry in report.reports {
                    guard let joined = fragments.add(entry) else { continue }
                    let whole = joined.entry
                    if joined.truncated { counts.truncated += 1 } else { counts.whole += 1 }
                    advertisements.append(ScannedAdvertisement(
                        address: whole.address, rssi: whole.availableRSSI, data: Array(whole.data), primaryPHY: whole.primaryPHY,
                        truncated: joined.truncated, scanResponse: whole.eventType.isScanResponse))
                }
                counts.dropped = fragments.dropped
                return advertisements
            case let .leMeta(.periodicAdvertisingSyncEstablished(done)):
                if done.status == .success {
                    syncs[done.syncHandle] = (done.advertiserAddress, done.advertiserPHY, HCI.LEPeriodicAdvertisingReport.Reassembly())
                }
                return []
            case let .leMeta(.periodicAdvertisingSyncLost(lost)):
                syncs[lost.syncHandle] = nil
                return []
            case let .leMeta(.periodicAdvertisingReport(report)):
                guard var sync = syncs[report.syncHandle] else { return [] }
                let event = sync.reports.add(report)
                syncs[report.syncHandle] = sync
                guard let event else { return [] }
                if event.truncated { counts.truncated += 1 } else { counts.periodic += 1 }
                return [ScannedAdvertisement(address: sync.advertiser, rssi: event.last.rssi == 127 ? nil : event.last.rssi,
                                             data: event.data, primaryPHY: sync.phy, truncated: event.truncated, periodic: true)]
            default:
                return nil
            }
        }
    }
}
