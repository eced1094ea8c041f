import BLEWire

/// The repeated attempts rule (Core 5.4, Vol 3, Part H, §2.3.6): after a failed pairing,
/// a device refuses new attempts from that peer with Repeated Attempts (0x09) for a
/// waiting interval that grows exponentially with each further failure, and returns to
/// the minimum after a success or a long quiet time.
///
/// Sans-IO and keyed by the peer's (identity) address; the Host consults it before
/// answering a Pairing Request or Security Request.
public struct SMPAttemptTracker: Hashable, Sendable {
    /// The first waiting interval, in microseconds.
    public var minimumInterval: HostTime
    /// The longest waiting interval, in microseconds.
    public var maximumInterval: HostTime
    /// The most peers remembered at once. A peer that fails from ever new addresses would
    /// otherwise grow the table without end; past this many, the peer whose last failure
    /// is oldest is forgotten first (it may then try again at once, as a new peer would).
    public var maximumPeers: Int
    /// Peers forgotten to stay within ``maximumPeers``, for logs and metrics.
    public private(set) var forgottenPeers = 0

    struct Record: Hashable, Sendable {
        var failures: Int
        var lastFailure: HostTime
    }

    var records: [BluetoothAddress: Record] = [:]

    /// A tracker; by default the interval starts at 2 s and doubles up to 5 minutes, and
    /// 64 peers are remembered (docs/limits.md).
    public init(minimumInterval: HostTime = 2_000_000, maximumInterval: HostTime = 300_000_000, maximumPeers: Int = 64) {
        self.minimumInterval = minimumInterval
        self.maximumInterval = max(minimumInterval, maximumInterval)
        self.maximumPeers = max(maximumPeers, 1)
    }

    /// How many peers the tracker remembers now.
    public var trackedPeerCount: Int { records.count }

    /// The waiting interval after `failures` consecutive failures.
    func interval(failures: Int) -> HostTime {
        var value = minimumInterval
        for _ in 1 ..< max(failures, 1) where value < maximumInterval { value *= 2 }
        return min(value, maximumInterval)
    }

    /// Whether pairing with `peer` must be refused with Repeated Attempts at `now`.
    public func isBlocked(_ peer: BluetoothAddress, at now: HostTime) -> Bool {
        guard let record = records[peer] else { return false }
        return now < record.lastFailure + interval(failures: record.failures)
    }

    /// When `peer` may pair again, `nil` if it may now.
    public func blockedUntil(_ peer: BluetoothAddress, at now: HostTime) -> HostTime? {
        guard let record = records[peer], isBlocked(peer, at: now) else { return nil }
        return record.lastFailure + interval(failures: record.failures)
    }

    /// Records a failed pairing: the interval doubles. A failure after a quiet time of
    /// twice the maximum interval counts as the first again (the interval decays, §2.3.6).
    public mutating func recordFailure(_ peer: BluetoothAddress, at now: HostTime) {
        var record = records[peer] ?? Record(failures: 0, lastFailure: now)
        if now - record.lastFailure > 2 * maximumInterval { record.failures = 0 }
        record.failures += 1
        record.lastFailure = now
        records[peer] = record
        if records.count > maximumPeers { forgetOldest(keeping: peer, at: now) }
    }

    /// Forgets the records whose quiet time has passed (they count as no failure anyway),
    /// then, while still over ``maximumPeers``, the one whose last failure is oldest (ties
    /// by address, so the choice is deterministic). `kept` is the peer just recorded.
    private mutating func forgetOldest(keeping kept: BluetoothAddress, at now: HostTime) {
        let before = records.count
        records = records.filter { $0.key == kept || now - $0.value.lastFailure <= 2 * maximumInterval }
        while records.count > maximumPeers {
            let oldest = records.filter { $0.key != kept }.min {
                ($0.value.lastFailure, $0.key) < ($1.value.lastFailure, $1.key)
            }
            guard let oldest else { break }
            records[oldest.key] = nil
        }
        forgottenPeers += before - records.count
    }

    /// Records a successful pairing: the interval returns to its minimum.
    public mutating func recordSuccess(_ peer: BluetoothAddress) {
        records[peer] = nil
    }

    /// The Pairing Failed PDU that refuses an attempt inside the interval.
    public static let refusal: [UInt8] = SMP.PairingFailed(reason: .repeatedAttempts).encoded()
}
