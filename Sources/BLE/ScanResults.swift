import BLEHost
import Synchronization

/// The advertisements of one running scan, as an `AsyncSequence` (see
/// ``Central/scan(filter:options:)``).
///
/// The scan ends — and the controller stops scanning — when the loop over it ends: a
/// `break` or `return`, the task's cancellation, ``stop()``, or the device closing. A scan
/// is iterated once; a second iterator ends at once.
public struct ScanResults: AsyncSequence, Sendable {
    /// What the sequence yields.
    public typealias Element = Advertisement
    /// Iteration never throws: it ends instead.
    public typealias Failure = Never

    let stream: AsyncStream<GAPAdvertisement>
    let session: ScanSession
    let sieve: ScanSieve
    let start: HostTime
    /// Ends the scan if the results are dropped without being iterated.
    private let unread: UnreadScan

    init(stream: AsyncStream<GAPAdvertisement>, session: ScanSession, sieve: ScanSieve, start: HostTime) {
        self.stream = stream
        self.session = session
        self.sieve = sieve
        self.start = start
        unread = UnreadScan(session: session)
    }

    /// The iterator of the scan; the first one made reads it, later ones end at once.
    public func makeAsyncIterator() -> Iterator {
        guard unread.take() else { return Iterator(base: nil, sieve: sieve, start: start, lifetime: nil) }
        return Iterator(base: stream.makeAsyncIterator(), sieve: sieve, start: start, lifetime: ScanLifetime(session: session))
    }

    /// Ends the scan and returns once the controller stopped scanning; the loop over the
    /// results then ends.
    public func stop() async {
        await session.endAndWait()
    }

    /// Reads the scan's advertisements; dropping it (leaving the loop) ends the scan.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<GAPAdvertisement>.Iterator?
        var sieve: ScanSieve
        let start: HostTime
        let lifetime: ScanLifetime?

        /// The next advertisement that passes the filter, or `nil` once the scan ended.
        public mutating func next() async -> Advertisement? {
            while let report = await base?.next() {
                let advertisement = Advertisement(report, scanStart: start)
                if sieve.admit(advertisement) { return advertisement }
            }
            // The host ended the stream (stopped, closed) or the task was cancelled.
            base = nil
            lifetime?.session.end()
            return nil
        }
    }
}

/// One scan of a ``Central``: ended once, from whichever side ends it first.
final class ScanSession: Sendable {
    private let ended = Mutex(false)
    private let central: Central

    init(central: Central) {
        self.central = central
    }

    /// Whether the scan was ended (its controller scan may still be stopping).
    var hasEnded: Bool { ended.withLock { $0 } }

    /// Marks the scan ended and has the central stop the controller's scan. Synchronous,
    /// so a new scan started right after a `break` finds this one ended.
    func end() {
        guard markEnded() else { return }
        Task { await central.scanEnded(self) }
    }

    /// Ends the scan and waits until the controller stopped scanning.
    func endAndWait() async {
        _ = markEnded()
        await central.scanEnded(self)
        await central.waitForStop()
    }

    private func markEnded() -> Bool {
        ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
    }
}

/// Held by the reading iterator: when the iterator goes (a `break`), the scan ends.
final class ScanLifetime: Sendable {
    let session: ScanSession
    init(session: ScanSession) { self.session = session }
    deinit { session.end() }
}

/// Held by ``ScanResults``: ends the scan if the results go without ever being iterated.
final class UnreadScan: Sendable {
    private let session: ScanSession
    private let iterated = Mutex(false)

    init(session: ScanSession) { self.session = session }

    /// `true` the first time: the caller reads the scan.
    func take() -> Bool {
        iterated.withLock { iterated in
            defer { iterated = true }
            return !iterated
        }
    }

    deinit {
        if !iterated.withLock({ $0 }) { session.end() }
    }
}
