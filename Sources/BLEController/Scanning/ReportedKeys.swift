/// The duplicate-filtering keys a legacy scanner has reported (Core 5.4, Vol 6, Part B,
/// §4.4.3.5; ``LegacyScanner/duplicateKey(_:_:)``).
///
/// The scanner notes every report, filtering or not, since an LE Set Scan Enable that turns
/// filtering on later suppresses what was reported before. A scanner in a crowd hears
/// thousands of advertisers, so a set of their keys is too big to stay in the processor's
/// cache and every look-up is a miss. While filtering is off nothing needs an answer, so
/// keys are noted in a short list first and folded into the set in sorted batches, each
/// distinct key once; whoever asks (filtering on) sees the folded set, the same membership
/// as if each key had gone straight in.
struct ReportedKeys: Sendable {
    private var keys: Set<UInt64> = []
    /// Keys noted but not yet in ``keys``, in the order reported.
    private var pending: [UInt64] = []

    /// How many keys are noted before they are folded in.
    static let batch = 1024

    /// Notes `key` without asking whether it is new (duplicate filtering off).
    mutating func note(_ key: UInt64) {
        pending.append(key)
        if pending.count >= Self.batch { fold() }
    }

    /// Notes `key`; returns whether it was new.
    mutating func insert(_ key: UInt64) -> Bool {
        fold()
        return keys.insert(key).inserted
    }

    /// Whether `key` was noted (mutating: it folds the keys noted last first).
    mutating func contains(_ key: UInt64) -> Bool {
        fold()
        return keys.contains(key)
    }

    /// How many distinct keys are noted.
    mutating func count() -> Int {
        fold()
        return keys.count
    }

    private mutating func fold() {
        guard !pending.isEmpty else { return }
        pending.sort()
        var previous: UInt64?
        for key in pending where key != previous {
            keys.insert(key)
            previous = key
        }
        pending.removeAll(keepingCapacity: true)
    }
}
