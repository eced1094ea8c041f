import BLEHost
import Synchronization

/// One event of a periodic train, its data whole (Core 5.4, Vol 6, Part B, §4.4.2.12; Vol 4,
/// Part E, §7.7.65.15): what ``Central/synchronize(to:sid:skip:timeout:findWithin:)`` yields.
public struct PeriodicAdvertisement: Hashable, Sendable {
    /// The advertiser's address, with its type.
    public var address: BluetoothAddress
    /// The advertising set's SID (0–15).
    public var sid: UInt8
    /// The train's interval.
    public var interval: Duration
    /// The PHY the train comes on.
    public var phy: HCI.PHY
    /// The received signal strength, in dBm; `nil` when the controller had none.
    public var rssi: Int?
    /// The transmit power the advertiser stated, in dBm, if it did.
    public var txPower: Int?
    /// The data decoded as AD structures; empty when it does not decode (see ``bytes``).
    public var data: AdvertisingData
    /// The data as received.
    public var bytes: [UInt8]
    /// Whether part of the event was lost (``bytes`` is what arrived).
    public var truncated: Bool

    /// An event with every value given.
    public init(
        address: BluetoothAddress, sid: UInt8, interval: Duration, phy: HCI.PHY, rssi: Int?, txPower: Int?,
        data: AdvertisingData, bytes: [UInt8], truncated: Bool
    ) {
        self.address = address
        self.sid = sid
        self.interval = interval
        self.phy = phy
        self.rssi = rssi
        self.txPower = txPower
        self.data = data
        self.bytes = bytes
        self.truncated = truncated
    }

    /// GAP's report on `sync`.
    init(_ report: GAPPeriodicReport, sync: GAPPeriodicSync) {
        self.init(
            address: sync.advertiser, sid: sync.sid, interval: .microseconds(Int64(sync.interval) * 1250), phy: sync.phy,
            rssi: report.rssi.map(Int.init), txPower: report.txPower.map(Int.init),
            data: (try? AdvertisingData(decoding: report.data)) ?? AdvertisingData(structures: []), bytes: report.data,
            truncated: report.truncated)
    }
}

/// The events of one periodic sync, as an `AsyncSequence` (see
/// ``Central/synchronize(to:sid:skip:timeout:findWithin:)``).
///
/// The sync ends — Create Sync Cancel before the train was found, Terminate Sync after —
/// when the loop over it ends (a `break`, the task's cancellation) or when the sequence is
/// dropped unread. Iteration throws when the train is lost or cannot be followed. A sync is
/// iterated once; a second iterator ends at once.
public struct PeriodicAdvertisements: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = PeriodicAdvertisement
    /// Why iteration ended early.
    public typealias Failure = BLEError

    private let holder: PeriodicStreamHolder
    private let core: DeviceCore

    init(stream: AsyncThrowingStream<HostPeriodicSyncEvent, any Error>, core: DeviceCore) {
        holder = PeriodicStreamHolder(stream)
        self.core = core
    }

    /// The iterator of the sync; the first one made reads it, later ones end at once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: holder.take()?.makeAsyncIterator(), core: core)
    }

    /// Reads the sync's events; dropping it (leaving the loop) ends the sync.
    public struct Iterator: AsyncIteratorProtocol {
        /// Why iteration ended early.
        public typealias Failure = BLEError
        // The only holder of the host's stream once iterated: when it goes, the stream is
        // cancelled and the host ends the sync.
        var base: AsyncThrowingStream<HostPeriodicSyncEvent, any Error>.Iterator?
        let core: DeviceCore
        var sync: GAPPeriodicSync?

        /// The next event's data, or `nil` once the sync ended as asked.
        /// - Throws: ``BLEError/procedureFailed(_:)`` naming why the sync ended: the train
        ///   lost, not found, or refused with the controller's status.
        public mutating func next() async throws(BLEError) -> PeriodicAdvertisement? {
            do {
                while let event = try await base?.next() {
                    switch event {
                    case let .established(established): sync = established
                    case let .report(report):
                        guard let sync else { continue }
                        return PeriodicAdvertisement(report, sync: sync)
                    }
                }
            } catch {
                base = nil
                throw core.translate(error)
            }
            base = nil
            return nil
        }
    }
}

/// Holds the host's stream until the first iterator takes it.
final class PeriodicStreamHolder: Sendable {
    private let stream: Mutex<AsyncThrowingStream<HostPeriodicSyncEvent, any Error>?>

    init(_ stream: AsyncThrowingStream<HostPeriodicSyncEvent, any Error>) {
        self.stream = Mutex(stream)
    }

    /// The stream, the first time.
    func take() -> AsyncThrowingStream<HostPeriodicSyncEvent, any Error>? {
        stream.withLock { stream in
            defer { stream = nil }
            return stream
        }
    }
}
