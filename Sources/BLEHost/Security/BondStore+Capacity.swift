import BLEWire

extension BondStore {
    /// The most bonds a keeper holds unless configured otherwise (docs/limits.md).
    public static let defaultMaximumBonds = 128

    /// Adds `record`, or replaces the one with the same identity address, keeping at most
    /// `maximum` bonds: a new peer that would pass the maximum first displaces the bonds
    /// least recently updated (oldest ``BondRecord/updated``, then lowest identity address,
    /// so the choice is deterministic). Replacing an existing bond never evicts.
    ///
    /// The specification leaves the number of bonds to the device (Core 5.4, Vol 3, Part C,
    /// §9.4.4); evicting the oldest is what Zephyr's `BT_KEYS_OVERWRITE_OLDEST` does, and it
    /// keeps a peer that pairs from ever new identities from growing the store and its file
    /// without end, at the cost of the oldest bond.
    /// - Returns: the bonds evicted, oldest first; empty when none was.
    @discardableResult
    public mutating func insert(_ record: BondRecord, keepingAtMost maximum: Int) -> [BondRecord] {
        var evicted: [BondRecord] = []
        if self[record.identityAddress] == nil {
            let excess = records.count + 1 - max(maximum, 1)
            if excess > 0 {
                let oldest = records.values.sorted {
                    ($0.updated, $0.identityAddress) < ($1.updated, $1.identityAddress)
                }.prefix(excess)
                for bond in oldest {
                    removeRecord(for: bond.identityAddress)
                    evicted.append(bond)
                }
            }
        }
        insert(record)
        return evicted
    }
}
