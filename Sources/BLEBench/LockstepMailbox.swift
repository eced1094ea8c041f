import BLEController
import BLEWire
import BLEWorld
import Synchronization

/// The packets between a lock-stepped world and its hosts, counted exactly, so the
/// ``LockstepRunner`` knows when every host has taken everything the world sent it and
/// handed over everything it wrote.
///
/// The counters are atomics, each on a cache line of its own: on the ideal link two host
/// threads count every packet, and a shared lock (or a shared line) bounced between them.
/// A waiting runner is rare, so a counter takes the lock only when one waits (`waiting`);
/// both sides use sequentially consistent operations, so a change made while the runner
/// registers is seen by one of the two.
final class LockstepMailbox: @unchecked Sendable {
    // @unchecked: the one non-Sendable stored property is `counters`, a raw pointer set
    // once in init and freed in deinit, whose memory is touched only through `Atomic`
    // operations; everything else is immutable or behind the Mutex.
    /// A host packet waiting to reach its controller.
    struct Submission: Sendable {
        var packet: H4.Packet
        var device: DeviceID
    }

    private struct State {
        var pending: [Submission] = []
        var waiter: (kind: Wait, continuation: CheckedContinuation<Void, Never>)?
        var stopped = false
    }

    /// What the runner waits for.
    enum Wait {
        case balanced, submission
        /// Balanced again after something was counted since the change counter read `since`.
        case balancedAfter(since: Int)
        /// As ``balancedAfter(since:)``, or `packets` counted since then: data streams, and
        /// a runner waiting for a balance it may not see for the whole stream would make
        /// every count meanwhile take the lock.
        case balancedOrStreaming(since: Int, packets: Int)
    }

    /// The four counters of each host, in host order.
    private enum Counter: Int, CaseIterable {
        /// Packets the world put in the host's stream.
        case toHost
        /// Packets the host began to process.
        case seenByHost
        /// Packets the host wrote.
        case writtenByHost
        /// Packets its transport handed over.
        case toWorld
    }

    /// Bytes between two counters: two cache lines, as adjacent-line prefetching pairs them.
    private static let counterStride = 128

    private let state: Mutex<State>
    /// Whether a runner waits in ``wait(for:)``: only then does a counter take the lock.
    private let waiting = Atomic<Bool>(false)
    /// `devices.count * 4` counters, `counterStride` bytes apart; immutable address,
    /// touched only through atomic operations (hence `@unchecked Sendable`).
    private let counters: UnsafeMutableRawPointer
    /// The served devices, in host order: searched, not hashed (two of them, every packet).
    private let devices: [DeviceID]

    /// A mailbox for hosts on `devices`, in host order.
    init(devices: [DeviceID]) {
        self.devices = devices
        let total = devices.count * Counter.allCases.count
        counters = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1) * Self.counterStride, alignment: Self.counterStride)
        for index in 0 ..< total {
            (counters + index * Self.counterStride).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        }
        state = Mutex(State())
    }

    deinit {
        for index in 0 ..< devices.count * Counter.allCases.count {
            _ = counter(index).deinitialize(count: 1)
        }
        counters.deallocate()
    }

    private func counter(_ index: Int) -> UnsafeMutablePointer<Atomic<Int>> {
        (counters + index * Self.counterStride).assumingMemoryBound(to: Atomic<Int>.self)
    }

    private func value(_ kind: Counter, host: Int) -> Int {
        counter(host * Counter.allCases.count + kind.rawValue).pointee.load(ordering: .sequentiallyConsistent)
    }

    /// Counts one packet, then wakes a waiting runner whose condition now holds.
    private func count(_ kind: Counter, host: Int) {
        counter(host * Counter.allCases.count + kind.rawValue).pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
        if waiting.load(ordering: .sequentiallyConsistent) { wakeIfSatisfied() }
    }

    /// A host's transport hands over a packet for its controller.
    func submit(_ packet: H4.Packet, to device: DeviceID) {
        state.withLock { $0.pending.append(Submission(packet: packet, device: device)) }
        if let index = devices.firstIndex(of: device) { count(.toWorld, host: index) } else { wakeIfSatisfied() }
    }

    /// A host's transport handed a packet straight to the world (``DirectLinkRunner``).
    func countSubmission(to device: DeviceID) {
        guard let index = devices.firstIndex(of: device) else { return }
        count(.toWorld, host: index)
    }

    /// The world put a packet in `device`'s host stream.
    func deliveredToHost(_ device: DeviceID) {
        guard let index = devices.firstIndex(of: device) else { return }
        count(.toHost, host: index)
    }

    /// Host `index` began processing a packet (`outgoing == false`) or wrote one: its
    /// snoop hook, which the host calls in both cases on its own isolation.
    func hostPacket(_ index: Int, outgoing: Bool) {
        guard devices.indices.contains(index) else { return }
        count(outgoing ? .writtenByHost : .seenByHost, host: index)
    }

    /// Every packet waiting for the world, oldest first.
    func takePending() -> [Submission] {
        state.withLock { state in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
    }

    /// Packets the world has put in host streams so far, all hosts together.
    var deliveredTotal: Int { devices.indices.reduce(0) { $0 + value(.toHost, host: $1) } }

    /// The change counter: every packet counted so far (each counter only grows, so the
    /// sum changes whenever anything is counted).
    var version: Int {
        var total = 0
        for host in devices.indices {
            for kind in Counter.allCases { total &+= value(kind, host: host) }
        }
        return total
    }

    /// Whether every host has taken what it was sent and handed over what it wrote.
    var isBalanced: Bool {
        devices.indices.allSatisfy { host in
            // Read what answers first: a counter read later can only have grown.
            let seen = value(.seenByHost, host: host), toWorld = value(.toWorld, host: host)
            return value(.toHost, host: host) == seen && value(.writtenByHost, host: host) == toWorld
        }
    }

    private func satisfies(_ kind: Wait, stopped: Bool, pending: Bool) -> Bool {
        if stopped { return true }
        switch kind {
        case .balanced: return isBalanced
        case .submission: return pending
        case let .balancedAfter(since): return version != since && isBalanced
        case let .balancedOrStreaming(since, packets):
            let now = version
            return now &- since >= packets || (now != since && isBalanced)
        }
    }

    /// Returns once `kind` holds (or the mailbox is stopped).
    func wait(for kind: Wait) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if satisfies(kind, stopped: state.stopped, pending: !state.pending.isEmpty) { return true }
                state.waiter = (kind, continuation)
                waiting.store(true, ordering: .sequentiallyConsistent)
                return false
            }
            if ready {
                continuation.resume()
            } else {
                // A counter bumped between the check and the flag did not look: look again.
                wakeIfSatisfied()
            }
        }
    }

    /// Ends every wait, now and later.
    func stop() {
        state.withLock { $0.stopped = true }
        wakeIfSatisfied()
    }

    private func wakeIfSatisfied() {
        let woken = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter,
                  satisfies(waiter.kind, stopped: state.stopped, pending: !state.pending.isEmpty) else { return nil }
            state.waiter = nil
            waiting.store(false, ordering: .sequentiallyConsistent)
            return waiter.continuation
        }
        woken?.resume()
    }
}
