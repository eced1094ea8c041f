import BLEWire

extension Host {
    /// The longest ``disconnect(_:reason:)`` waits for a link's queued data to be
    /// completed before it terminates the link anyway (a peer that stopped answering
    /// never completes it; its supervision timeout ends the link meanwhile).
    static let disconnectDrainLimit: Duration = .seconds(1)

    /// Returns once every ACL fragment of `handle` is completed by the controller, the
    /// link is gone, the host closed, or ``disconnectDrainLimit`` passed.
    func waitForACLDrain(_ handle: UInt16) async {
        guard closed == nil, linkIsUp(handle), driver.uncompletedACLFragments(handle: handle) > 0 else { return }
        let waiter = nextDrainWaiter
        nextDrainWaiter += 1
        let limit = Self.disconnectDrainLimit
        // A timer, not a wait for an event: it bounds how long a disconnection may be held back.
        let clock = self.clock
        let timer = Task { [weak self] in
            try? await clock.sleep(for: limit)
            await self?.drainTimedOut(handle, waiter: waiter)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            drainWaiters[handle, default: [:]][waiter] = continuation
        }
        timer.cancel()
    }

    /// Wakes the disconnections whose link has nothing left to complete (or is gone);
    /// called after every packet from the controller.
    func wakeDrainWaiters() {
        guard !drainWaiters.isEmpty else { return }
        for handle in drainWaiters.keys.sorted()
        where !linkIsUp(handle) || driver.uncompletedACLFragments(handle: handle) == 0 {
            for waiter in (drainWaiters.removeValue(forKey: handle) ?? [:]).values { waiter.resume() }
        }
    }

    /// The host is closing: every held disconnection goes ahead.
    func releaseDrainWaiters() {
        let waiting = drainWaiters
        drainWaiters = [:]
        for waiter in waiting.values.flatMap(\.values) { waiter.resume() }
    }

    private func linkIsUp(_ handle: UInt16) -> Bool { gap.connections.contains { $0.handle == handle } }

    private func drainTimedOut(_ handle: UInt16, waiter: Int) {
        guard let continuation = drainWaiters[handle]?.removeValue(forKey: waiter) else { return }
        if drainWaiters[handle]?.isEmpty == true { drainWaiters[handle] = nil }
        continuation.resume()
    }
}
