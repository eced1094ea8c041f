import BLEWire

// The periodic sync requests that wait their turn: the controller takes one LE Periodic
// Advertising Create Sync at a time (Core 5.4, Vol 4, Part E, §7.8.67: a second while one
// is pending is Command Disallowed), so GAP keeps the others, in order. And the scan GAP
// runs for them, handed to the app that starts one of its own.

extension GAPCore {
    /// How many sync requests wait for the pending one to end.
    public var queuedSyncCount: Int { queuedSyncs.count }

    /// Gives up the request for `advertiser`'s set `sid`: a queued one leaves the queue at
    /// once, the pending one is cancelled in the controller (``cancelSynchronizing(at:)``).
    /// ``GAPEvent/periodicSyncFailed(advertiser:sid:_:)`` with ``GAPError/cancelled`` follows.
    /// - Throws: ``GAPError/periodicSyncNotPending`` when no request for that train is
    ///   pending or queued.
    public mutating func cancelSynchronizing(
        to advertiser: BluetoothAddress, sid: UInt8, at now: HostTime
    ) throws(GAPError) -> [GAPOutput] {
        if let index = queuedSyncs.firstIndex(where: { $0.request.advertiser.value == advertiser.value && $0.request.sid == sid }) {
            let request = queuedSyncs.remove(at: index).request
            return [.event(.periodicSyncFailed(advertiser: request.advertiser, sid: request.sid, .cancelled))]
        }
        guard let pendingSync, pendingSync.request.advertiser.value == advertiser.value, pendingSync.request.sid == sid else {
            throw .periodicSyncNotPending
        }
        return try cancelSynchronizing(at: now)
    }

    /// The pending request ended (established, refused or cancelled): the next queued one
    /// whose time to find its train has not run out is sent; with none left, the scan GAP
    /// started for the requests stops.
    mutating func pendingSyncEnded(at now: HostTime) -> [GAPOutput] {
        var outputs = expireQueuedSyncs(at: now)
        while pendingSync == nil, !queuedSyncs.isEmpty {
            let next = queuedSyncs.removeFirst()
            do throws(GAPError) {
                outputs += try send(next, at: now)
            } catch {
                outputs.append(.event(.periodicSyncFailed(advertiser: next.request.advertiser, sid: next.request.sid, error)))
            }
        }
        if pendingSync == nil { outputs += stopScanForSync() }
        return outputs
    }

    /// Ends the queued requests whose time to find their train ran out while they waited,
    /// with ``GAPError/periodicTrainNotFound``.
    mutating func expireQueuedSyncs(at now: HostTime) -> [GAPOutput] {
        var outputs: [GAPOutput] = []
        queuedSyncs.removeAll { attempt in
            guard let deadline = attempt.deadline, deadline <= now else { return false }
            outputs.append(.event(.periodicSyncFailed(advertiser: attempt.request.advertiser, sid: attempt.request.sid, .periodicTrainNotFound)))
            return true
        }
        return outputs
    }
}

extension GAPCore {
    /// Whether the scan running is GAP's own, for periodic sync requests: an app's extended
    /// scan may take it over (``startScanning(_:at:)``).
    public var isScanningForPeriodicSync: Bool { scanningForSync && (scanning == .on || scanning == .starting) }

    /// The app starts a scan while GAP's own finds periodic trains: the scan becomes the
    /// app's, so GAP no longer stops it when the requests end, and it is disabled first
    /// (new scan parameters need scanning off, §7.8.64) to restart with the app's
    /// parameters. The requests go on finding their trains on the app's scan.
    mutating func handOverSyncScan() -> GAPOutput {
        scanningForSync = false
        return scanDisable(for: .scanParameters)
    }
}

extension GAPPeriodicSyncRequest {
    /// Whether `other` asks for the same train: the same advertiser and SID.
    func isSameTrain(as other: GAPPeriodicSyncRequest) -> Bool {
        advertiser.value == other.advertiser.value && sid == other.sid
    }
}
