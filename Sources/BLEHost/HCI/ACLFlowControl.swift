import BLEWire

/// Host-to-controller ACL flow control (Core 5.4, Vol 4, Part E, §4.1.1): a B-frame is cut
/// into fragments of at most the controller's LE ACL length; each fragment takes one of the
/// controller's buffers, which Number Of Completed Packets gives back per handle.
struct ACLFlowControl: Sendable {
    /// Largest fragment payload.
    private(set) var fragmentLength = 27
    /// Buffers the controller has free.
    private(set) var credits = 0
    /// Buffers the controller has in total.
    private(set) var totalBuffers = 0
    /// Fragments waiting for a buffer, oldest first.
    private(set) var queue: [HCI.ACLPacket] = []
    /// Fragments sent and not yet completed, by handle.
    private(set) var inFlight: [UInt16: Int] = [:]

    /// Sets the controller's buffers (after start-up), all free.
    mutating func configure(fragmentLength: Int, buffers: Int) {
        self.fragmentLength = max(1, fragmentLength)
        totalBuffers = max(0, buffers)
        credits = totalBuffers
        queue = []
        inFlight = [:]
    }

    /// Cuts `frame` into fragments (first non-flushable, then continuing) and queues them.
    mutating func enqueue(_ frame: [UInt8], handle: UInt16) {
        var start = frame.startIndex
        var first = true
        repeat {
            let end = min(start + fragmentLength, frame.endIndex)
            queue.append(HCI.ACLPacket(
                connectionHandle: handle, packetBoundary: first ? .firstNonAutomaticallyFlushable : .continuing,
                data: frame[start ..< end]))
            first = false
            start = end
        } while start < frame.endIndex
    }

    /// Fragments of `handle` still waiting for a buffer.
    func queuedFragments(handle: UInt16) -> Int {
        queue.reduce(0) { $0 + ($1.connectionHandle == handle ? 1 : 0) }
    }

    /// Fragments of `handle` queued or in the controller's buffers, not yet completed.
    func uncompletedFragments(handle: UInt16) -> Int {
        queuedFragments(handle: handle) + (inFlight[handle] ?? 0)
    }

    /// Sends queued fragments while buffers are free.
    mutating func pump() -> [H4.Packet] {
        var sent: [H4.Packet] = []
        var taken = 0
        while credits > 0, taken < queue.count {
            let packet = queue[taken]
            taken += 1
            credits -= 1
            inFlight[packet.connectionHandle, default: 0] += 1
            sent.append(.acl(packet))
        }
        queue.removeFirst(taken)
        return sent
    }

    /// Gives back buffers the controller completed on `handle`; counts beyond what is in
    /// flight (a confused controller) are ignored.
    mutating func completed(_ count: Int, handle: UInt16) {
        let released = min(max(0, count), inFlight[handle] ?? 0)
        guard released > 0 else { return }
        inFlight[handle] = (inFlight[handle] ?? 0) - released
        if inFlight[handle] == 0 { inFlight[handle] = nil }
        credits = min(totalBuffers, credits + released)
    }

    /// A link is gone: its queued fragments are dropped (returned count) and its buffers
    /// are free again (§4.3: the controller flushes them on disconnection).
    mutating func disconnected(_ handle: UInt16) -> Int {
        let before = queue.count
        queue.removeAll { $0.connectionHandle == handle }
        let recovered = inFlight.removeValue(forKey: handle) ?? 0
        credits = min(totalBuffers, credits + recovered)
        return before - queue.count
    }
}
