extension HCI.LEExtendedAdvertisingReport {
    /// Joins the fragments of advertising data that an extended scan's reports carry (Core 5.4,
    /// Vol 4, Part E, §7.7.65.13: Data_Status 0b01 "incomplete, more data to come" until 0b00
    /// "complete" or 0b10 "incomplete, truncated"), per advertiser (address and its type), set
    /// (Advertising_SID) and kind (advertisement or scan response). Fragments of different
    /// advertisers may interleave (§5.2).
    ///
    /// It lives beside the report so that every scanner of the stack joins fragments the same
    /// way: the host's GAP and the simulated world's scenario observers and gateways.
    ///
    /// Bounded: at most ``pendingLimit`` advertisements wait at once (the oldest is dropped and
    /// counted in ``dropped`` when another starts; the fragments of its rest are then
    /// discarded, never passed off as a whole advertisement), and one's data stops at
    /// ``maximumLength`` octets, past which it is reported truncated.
    public struct Reassembly: Sendable {
        /// One advertisement put back together.
        public struct Advertisement: Hashable, Sendable {
            /// The last fragment's report, with the data of every fragment joined in order.
            public var entry: Report
            /// Whether the data is cut short: the controller reported it truncated (an
            /// AUX_CHAIN_IND it missed, Vol 6, Part B, §4.4.2.3), or it outgrew ``maximumLength``.
            /// The data is then the part that arrived.
            public var truncated: Bool

            /// An advertisement from its joined report and whether it is cut short.
            public init(entry: Report, truncated: Bool) {
                self.entry = entry
                self.truncated = truncated
            }
        }

        private struct Key: Hashable, Sendable {
            var address: BluetoothAddress
            var addressType: HCI.AddressType
            var sid: UInt8
            var scanResponse: Bool
        }

        /// The most advertisements waiting for more fragments at once.
        public static let pendingLimit = 64
        /// The most data one advertisement may have (Vol 6, Part B, §2.3.4.9: 1,650 octets).
        public static let maximumLength = 1_650

        private var pending: [Key: [UInt8]] = [:]
        private var order: [Key] = []
        /// Advertisements whose start was dropped and whose rest is still to be discarded, oldest first.
        private var discarding: [Key] = []
        /// Advertisements dropped unfinished because ``pendingLimit`` others were waiting.
        public private(set) var dropped = 0

        /// An empty reassembly, waiting for nothing.
        public init() {}

        /// The number of advertisements waiting for more fragments.
        public var pendingCount: Int { pending.count }

        /// Takes one report entry.
        /// - Parameter entry: a report entry, in the order the controller sent it.
        /// - Returns: the whole advertisement once its last fragment came (complete or
        ///   truncated), `nil` while more is to come.
        public mutating func add(_ entry: Report) -> Advertisement? {
            let key = Key(address: entry.address, addressType: entry.addressType, sid: entry.advertisingSID,
                          scanResponse: entry.eventType.isScanResponse)
            if let index = discarding.firstIndex(of: key) {
                // The rest of a dropped advertisement: discarded up to its last fragment.
                if entry.eventType.dataStatus != .incompleteMoreToCome { discarding.remove(at: index) }
                return nil
            }
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
                    if discarding.count >= Self.pendingLimit { discarding.removeFirst() }
                    discarding.append(oldest)
                }
                pending[key] = data
                order.append(key)
                return nil
            default:
                var whole = entry
                whole.data = data[...]
                return Advertisement(entry: whole, truncated: overlong || entry.eventType.dataStatus != .complete)
            }
        }
    }
}
