import BLEWire

// Synchronising to periodic trains (Core 5.4, Vol 4, Part E, §7.8.67–§7.8.69, §7.7.65.14–16;
// Vol 3, Part C, §9.5.2 "Periodic advertising synchronization establishment procedure").

extension GAPCore {
    /// Whether a Create Sync is pending (sent and not yet ended).
    public var isSynchronizing: Bool { pendingSync != nil }
    /// The syncs established and not yet ended, by handle.
    public var periodicSyncHandles: [UInt16] { periodicSyncs.keys.sorted() }

    /// Starts synchronising to `request`'s train: LE Periodic Advertising Create Sync, and an
    /// extended scan when none runs, since the controller finds the train only in an
    /// AUX_ADV_IND's SyncInfo heard while scanning (§9.5.2). GAP stops that scan once no
    /// request is left (each established or not); a scan the app started is left alone.
    ///
    /// The controller takes one Create Sync at a time (§7.8.67: Command Disallowed while one
    /// is pending), so a request made while another is pending waits in GAP's queue, in
    /// order, and is sent when the one before it ended; its `findTimeout` counts from now.
    /// Several syncs may then be established at once, each with its own handle.
    ///
    /// ``GAPEvent/periodicSyncEstablished(_:)`` or ``GAPEvent/periodicSyncFailed(advertiser:sid:_:)``
    /// follows, then ``GAPEvent/periodicReport(_:)`` for each whole event's data and, when the
    /// train goes silent for the sync timeout, ``GAPEvent/periodicSyncLost(handle:)``.
    /// - Throws: ``GAPError/periodicSyncUnsupported`` for a controller without the feature or
    ///   the commands, ``GAPError/invalidPeriodicSync(_:)`` for parameters the controller
    ///   would refuse or while a legacy scan runs, ``GAPError/periodicSyncPending`` while a
    ///   request for the same train is pending or queued.
    public mutating func synchronize(_ request: GAPPeriodicSyncRequest, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard supportsPeriodicSync else { throw .periodicSyncUnsupported }
        guard supportsExtendedScanning else { throw .extendedScanningUnsupported }
        if let invalidity = request.invalidity { throw .invalidPeriodicSync(invalidity) }
        let attempt = GAPPendingPeriodicSync(request: request, deadline: now &+ request.findTimeout, cancelReason: nil)
        if let pendingSync {
            if ([pendingSync] + queuedSyncs).contains(where: { $0.request.isSameTrain(as: request) }) { throw .periodicSyncPending }
            if (scanning == .on || scanning == .starting), !scanningExtended {
                throw .invalidPeriodicSync("a legacy scan is running, and only an extended scan finds a periodic train; stop it first")
            }
            queuedSyncs.append(attempt)
            return []
        }
        return try send(attempt, at: now)
    }

    /// Sends `attempt`'s Create Sync, with the extended scan it needs.
    mutating func send(_ attempt: GAPPendingPeriodicSync, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        var scan: [GAPOutput] = []
        switch scanning {
        case .off:
            scan = try startScanning(GAPScanParameters(active: false, extended: true), at: now)
            scanningForSync = true
        case .on, .starting:
            guard scanningExtended else {
                throw .invalidPeriodicSync("a legacy scan is running, and only an extended scan finds a periodic train; stop it first")
            }
        case .stopping:
            throw .invalidPeriodicSync("scanning is being stopped; try again once it stopped")
        }
        pendingSync = attempt
        let request = attempt.request
        let createSync = submit(HCI.LEPeriodicAdvertisingCreateSync(
            advertisingSID: request.sid, advertiserAddressType: request.advertiserAddressType,
            advertiserAddress: request.advertiser, skip: request.skip, syncTimeout: request.syncTimeout), for: .createSync)
        return [createSync] + scan
    }

    /// Gives up the pending request (LE Periodic Advertising Create Sync Cancel, §7.8.68);
    /// ``GAPEvent/periodicSyncFailed(advertiser:sid:_:)`` with ``GAPError/cancelled`` follows.
    /// A sync the controller established meanwhile is terminated.
    public mutating func cancelSynchronizing(at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard var attempt = pendingSync else { throw .periodicSyncNotPending }
        guard attempt.cancelReason == nil else { return [] }
        attempt.cancelReason = .cancelled
        attempt.deadline = nil
        pendingSync = attempt
        return [submit(HCI.LEPeriodicAdvertisingCreateSyncCancel(), for: .createSyncCancel)]
    }

    /// Stops following sync `handle` (LE Periodic Advertising Terminate Sync, §7.8.69);
    /// ``GAPEvent/periodicSyncTerminated(handle:)`` follows.
    public mutating func terminateSync(_ handle: UInt16, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard periodicSyncs.removeValue(forKey: handle) != nil else { throw .unknownPeriodicSync(handle: handle) }
        return [submit(HCI.LEPeriodicAdvertisingTerminateSync(syncHandle: handle), for: .terminateSync(handle: handle))]
    }

    /// The pending request's time to find the train passed: cancel it.
    mutating func periodicSyncTimerFired(at now: HostTime) -> [GAPOutput] {
        var outputs = expireQueuedSyncs(at: now)
        guard var attempt = pendingSync, let deadline = attempt.deadline, deadline <= now else { return outputs }
        attempt.deadline = nil
        attempt.cancelReason = .periodicTrainNotFound
        pendingSync = attempt
        outputs.append(submit(HCI.LEPeriodicAdvertisingCreateSyncCancel(), for: .createSyncCancel))
        return outputs
    }

    /// The answers to the sync commands.
    mutating func answeredPeriodicSync(_ purpose: Purpose, failure: GAPError?, at now: HostTime) -> [GAPOutput] {
        switch purpose {
        case .createSync:
            // Refused in its Command Status: the request ends here.
            guard let failure, let attempt = pendingSync else { return [] }
            pendingSync = nil
            return pendingSyncEnded(at: now) + [.event(.periodicSyncFailed(
                advertiser: attempt.request.advertiser, sid: attempt.request.sid, attempt.cancelReason ?? failure))]
        case let .terminateSync(handle):
            if let failure { return [.event(.procedureFailed(.terminatePeriodicSync(handle: handle), failure))] }
            return [.event(.periodicSyncTerminated(handle: handle))]
        default:
            // Create Sync Cancel: refused when the request already ended; its event says how.
            return []
        }
    }

    /// The sync events (§7.7.65.14–16).
    mutating func periodicSyncEvent(_ event: HCI.LEMetaEvent, at now: HostTime) -> [GAPOutput] {
        switch event {
        case let .periodicAdvertisingSyncEstablished(done):
            guard let attempt = pendingSync, attempt.request.sid == done.advertisingSID,
                  attempt.request.advertiser.value == done.advertiserAddress.value
            else { return [] }
            pendingSync = nil
            let request = attempt.request
            var outputs = pendingSyncEnded(at: now)
            guard done.status == .success else {
                let reason = attempt.cancelReason ?? .controller(done.status)
                return outputs + [.event(.periodicSyncFailed(advertiser: request.advertiser, sid: request.sid, reason))]
            }
            if let reason = attempt.cancelReason {
                // Established before the cancel reached the controller: end it at once.
                outputs.append(submit(HCI.LEPeriodicAdvertisingTerminateSync(syncHandle: done.syncHandle),
                                      for: .terminateSync(handle: done.syncHandle)))
                return outputs + [.event(.periodicSyncFailed(advertiser: request.advertiser, sid: request.sid, reason))]
            }
            periodicSyncs[done.syncHandle] = HCI.LEPeriodicAdvertisingReport.Reassembly()
            return outputs + [.event(.periodicSyncEstablished(GAPPeriodicSync(
                handle: done.syncHandle, advertiser: done.advertiserAddress, advertiserAddressType: done.advertiserAddressType,
                sid: done.advertisingSID, phy: done.advertiserPHY, interval: done.periodicAdvertisingInterval,
                clockAccuracy: done.advertiserClockAccuracy)))]
        case let .periodicAdvertisingReport(report):
            guard var reassembly = periodicSyncs[report.syncHandle] else { return [] }
            let whole = reassembly.add(report)
            periodicSyncs[report.syncHandle] = reassembly
            return whole.map { event in
                [.event(.periodicReport(GAPPeriodicReport(
                    syncHandle: event.last.syncHandle, txPower: event.last.txPower == 127 ? nil : event.last.txPower,
                    rssi: event.last.rssi == 127 ? nil : event.last.rssi, data: event.data, truncated: event.truncated)))]
            } ?? []
        case let .periodicAdvertisingSyncLost(lost):
            guard periodicSyncs.removeValue(forKey: lost.syncHandle) != nil else { return [] }
            return [.event(.periodicSyncLost(handle: lost.syncHandle))]
        default:
            return []
        }
    }

    /// Stops the scan GAP started for the requests, if it still runs.
    mutating func stopScanForSync() -> [GAPOutput] {
        guard scanningForSync else { return [] }
        scanningForSync = false
        guard scanning == .on || scanning == .starting else { return [] }
        scanning = .stopping
        return [scanDisable(for: .scanEnable(false))]
    }
}

extension HCI.LEMetaEvent {
    /// Whether the event is one of a periodic sync's (§7.7.65.14–16).
    var isPeriodicSyncEvent: Bool {
        switch self {
        case .periodicAdvertisingSyncEstablished, .periodicAdvertisingReport, .periodicAdvertisingSyncLost: return true
        default: return false
        }
    }
}
