extension HCI.LEPeriodicAdvertisingReport {
    /// Joins one sync's reports into its periodic events' data (Core 5.4, Vol 4, Part E,
    /// §7.7.65.15: Data_Status "more to come" until "complete" or "truncated"), at most 1,650
    /// octets an event (Vol 6, Part B, §2.3.4.9), past which the event is reported truncated
    /// and the rest of its reports are discarded.
    ///
    /// One per sync handle. It lives beside the report so that the host's GAP and the
    /// simulated world's scenario observers and gateways join periodic data the same way.
    public struct Reassembly: Sendable {
        /// One periodic event's data put back together.
        public struct Event: Hashable, Sendable {
            /// The event's last report (its RSSI and TX power are the event's).
            public var last: HCI.LEPeriodicAdvertisingReport
            /// The data of every report of the event, joined in order.
            public var data: [UInt8]
            /// Whether the data is cut short: reported truncated (a lost AUX_CHAIN_IND) or
            /// longer than 1,650 octets. The data is then the part that arrived.
            public var truncated: Bool

            /// An event from its last report, its data and whether it is cut short.
            public init(last: HCI.LEPeriodicAdvertisingReport, data: [UInt8], truncated: Bool) {
                self.last = last
                self.data = data
                self.truncated = truncated
            }
        }

        private var data: [UInt8] = []
        /// Whether the rest of an event already reported as overlong is being discarded.
        private var dropping = false

        /// A reassembly at the start of an event.
        public init() {}

        /// Takes one report of the sync.
        /// - Parameter report: the sync's next report, in the order the controller sent it.
        /// - Returns: the event once its last report came, `nil` while more is to come.
        public mutating func add(_ report: HCI.LEPeriodicAdvertisingReport) -> Event? {
            if dropping {
                dropping = report.dataStatus == .incompleteMoreToCome
                return nil
            }
            data += report.data
            let limit = HCI.LEExtendedAdvertisingReport.Reassembly.maximumLength
            let overlong = data.count > limit
            if overlong { data.removeLast(data.count - limit) }
            if report.dataStatus == .incompleteMoreToCome {
                guard overlong else { return nil }
                dropping = true
            }
            defer { data = [] }
            return Event(last: report, data: data, truncated: overlong || report.dataStatus != .complete)
        }
    }
}
