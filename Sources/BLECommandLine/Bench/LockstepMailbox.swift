import BLEController
import BLEWire
import BLEWorld
import Synchronization

/// The packets between a lock-stepped world and its hosts, counted exactly, so the
/// ``LockstepRunner`` knows when every host has taken everything the world sent it and
/// handed over everything it wrote.
final class LockstepMailbox: Sendable {
    /// A host packet waiting to reach its controller.
    struct Submission: Sendable {
        var packet: H4.Packet
        var device: DeviceID
    }

    private struct State {
        var pending: [Submission] = []
        /// Per host: packets the world put in its stream, packets it began to process,
        /// packets it wrote, and packets its transport handed over.
        var toHost: [Int]
        var seenByHost: [Int]
        var writtenByHost: [Int]
        var toWorld: [Int]
        /// Bumped by every change, so a caller can tell that nothing happened meanwhile.
        var version = 0
        var waiter: (kind: Wait, continuation: CheckedContinuation<Void, Never>)?
        var stopped = false

        var balanced: Bool { toHost == seenByHost && writtenByHost == toWorld }

        func satisfies(_ kind: Wait) -> Bool {
            if stopped { return true }
            switch kind {
            case .balanced: return balanced
            case .submission: return !pending.isEmpty
            case let .balancedAfter(since): return version != since && balanced
            }
        }
    }

    /// What the runner waits for.
    enum Wait {
        case balanced, submission
        /// Balanced again after something was counted since the change counter read `since`.
        case balancedAfter(since: Int)
    }

    private let state: Mutex<State>
    /// The served devices, in host order: searched, not hashed (two of them, every packet).
    private let devices: [DeviceID]

    /// A mailbox for hosts on `devices`, in host order.
    init(devices: [DeviceID]) {
        let zeros = [Int](repeating: 0, count: devices.count)
        state = Mutex(State(toHost: zeros, seenByHost: zeros, writtenByHost: zeros, toWorld: zeros))
        self.devices = devices
    }

    /// A host's transport hands over a packet for its controller.
    func submit(_ packet: H4.Packet, to device: DeviceID) {
        change { state in
            state.pending.append(Submission(packet: packet, device: device))
            if let index = devices.firstIndex(of: device) { state.toWorld[index] += 1 }
        }
    }

    /// A host's transport handed a packet straight to the world (``DirectLinkRunner``).
    func countSubmission(to device: DeviceID) {
        guard let index = devices.firstIndex(of: device) else { return }
        change { $0.toWorld[index] += 1 }
    }

    /// The world put a packet in `device`'s host stream.
    func deliveredToHost(_ device: DeviceID) {
        guard let index = devices.firstIndex(of: device) else { return }
        change { $0.toHost[index] += 1 }
    }

    /// Host `index` began processing a packet (`outgoing == false`) or wrote one: its
    /// snoop hook, which the host calls in both cases on its own isolation.
    func hostPacket(_ index: Int, outgoing: Bool) {
        change { state in
            if outgoing { state.writtenByHost[index] += 1 } else { state.seenByHost[index] += 1 }
        }
    }

    /// Every packet waiting for the world, oldest first.
    func takePending() -> [Submission] {
        state.withLock { state in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
    }

    /// Packets the world has put in host streams so far, all hosts together.
    var deliveredTotal: Int { state.withLock { $0.toHost.reduce(0, +) } }
    /// The change counter.
    var version: Int { state.withLock { $0.version } }
    /// Whether every host has taken what it was sent and handed over what it wrote.
    var isBalanced: Bool { state.withLock { $0.balanced } }

    /// Returns once `kind` holds (or the mailbox is stopped).
    func wait(for kind: Wait) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.satisfies(kind) { return true }
                state.waiter = (kind, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends every wait, now and later.
    func stop() { change { $0.stopped = true } }

    private func change(_ body: (inout State) -> Void) {
        let woken = state.withLock { state -> CheckedContinuation<Void, Never>? in
            body(&state)
            state.version &+= 1
            guard let waiter = state.waiter, state.satisfies(waiter.kind) else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        woken?.resume()
    }
}
