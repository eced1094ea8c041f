import BLEFleet
import BLEWire

/// A gateway's sans-IO heart (DESIGN.md, "Sans-IO protocol cores"): it takes each
/// advertisement its scanner reports, keeps what its ``GatewayFilter`` names as a
/// ``Sighting`` numbered within the gateway's run, and hands them out in batches by size
/// or age. No clock, file or socket inside: the caller says what time it is, and the
/// runtime (``GatewayPipeline``) spools and stores what it returns.
public struct GatewayCore: Sendable {
    /// How batches are cut.
    public struct Batching: Hashable, Sendable {
        /// At most this many sightings in one batch.
        public var maximumCount: Int
        /// A batch is handed out once its oldest sighting is this old, in microseconds.
        public var maximumAge: Int64

        /// Batches of at most `maximumCount` sightings, handed out at most `maximumAge` µs after their first.
        public init(maximumCount: Int = 500, maximumAge: Int64 = 1_000_000) {
            self.maximumCount = max(1, maximumCount)
            self.maximumAge = max(0, maximumAge)
        }
    }

    /// What the gateway counted since it started.
    public struct Counts: Hashable, Sendable {
        /// Advertising reports received.
        public var received = 0
        /// Reports kept as sightings.
        public var kept = 0
        /// Reports without RSSI (127), which are not kept.
        public var withoutRSSI = 0
    }

    /// The gateway's name.
    public let name: String
    /// This run's number (see ``Sighting/run``).
    public let run: Int64
    /// What it keeps.
    public let filter: GatewayFilter
    /// How it batches.
    public let batching: Batching
    /// What it counted.
    public private(set) var counts = Counts()
    /// The sighting kept last, if any.
    public private(set) var lastSighting: Sighting?
    private var nextSequence: Int64 = 0
    private var pending: [Sighting] = []

    /// A gateway called `name` in run `run`.
    public init(name: String, run: Int64, filter: GatewayFilter, batching: Batching = Batching()) {
        self.name = name
        self.run = run
        self.filter = filter
        self.batching = batching
    }

    /// Takes one advertising report heard at `time` (µs since the epoch) and returns the batches
    /// that are now full.
    /// - Parameters:
    ///   - rssi: in dBm, or `nil` when the controller had none (such a report is not kept).
    ///   - data: the advertising data or scan response as received.
    public mutating func receive(address: BluetoothAddress, rssi: Int?, data: [UInt8], time: Int64) -> [SightingBatch] {
        counts.received += 1
        guard let rssi else {
            counts.withoutRSSI += 1
            return []
        }
        guard let kept = filter.keep(address: address, data: data) else { return [] }
        counts.kept += 1
        let sighting = Sighting(gateway: name, run: run, sequence: nextSequence, identity: kept.identity,
                                address: address.description, addressIsRandom: address.kind == .random,
                                time: time, rssi: rssi, txPower: kept.txPower, frame: data)
        pending.append(sighting)
        lastSighting = sighting
        nextSequence += 1
        return pending.count >= batching.maximumCount ? [cut()] : []
    }

    /// The batch due at `time` (its first sighting is ``Batching/maximumAge`` old), if any.
    public mutating func due(at time: Int64) -> SightingBatch? {
        guard let first = pending.first, time - first.time >= batching.maximumAge else { return nil }
        return cut()
    }

    /// When the pending batch falls due, or `nil` when nothing is pending.
    public var nextDeadline: Int64? { pending.first.map { $0.time + batching.maximumAge } }

    /// Everything pending, as one batch (at shutdown), or `nil` when nothing is.
    public mutating func flush() -> SightingBatch? { pending.isEmpty ? nil : cut() }

    private mutating func cut() -> SightingBatch {
        let batch = SightingBatch(sightings: pending)
        pending.removeAll(keepingCapacity: true)
        return batch
    }
}
