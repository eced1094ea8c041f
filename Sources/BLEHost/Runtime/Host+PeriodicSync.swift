import BLEWire

/// What a periodic sync's stream yields (``Host/synchronize(to:addressType:sid:skip:timeout:findTimeout:)``).
public enum HostPeriodicSyncEvent: Hashable, Sendable {
    /// The controller follows the train (LE Periodic Advertising Sync Established, Core 5.4,
    /// Vol 4, Part E, §7.7.65.14); reports follow.
    case established(GAPPeriodicSync)
    /// One periodic event's data, joined from its fragments (§7.7.65.15).
    case report(GAPPeriodicReport)
}

/// One stream of ``Host/synchronize(to:addressType:sid:skip:timeout:findTimeout:)``: its
/// continuation and, once established, its sync's handle.
struct HostPeriodicSession {
    var continuation: AsyncThrowingStream<HostPeriodicSyncEvent, any Error>.Continuation
    var request: GAPPeriodicSyncRequest
    var handle: UInt16?
}

extension Host {
    /// Synchronises to an advertiser's periodic train (Core 5.4, Vol 3, Part C, §9.5.2;
    /// Vol 4, Part E, §7.8.67) and returns its events: ``HostPeriodicSyncEvent/established(_:)``
    /// once the controller follows it, then a ``HostPeriodicSyncEvent/report(_:)`` for each
    /// periodic event's whole data.
    ///
    /// An extended scan runs while the sync is being established (the controller finds the
    /// train in the set's AUX_ADV_IND): the app's own if one runs, else one the host starts
    /// and stops once the sync is established or refused.
    ///
    /// The stream ends with ``HostError/gap(_:)`` carrying the reason:
    /// ``GAPError/controller(_:)`` with the controller's status (a refused Create Sync, or
    /// Connection Failed to be Established, 0x3E, when the train's first packets did not
    /// come), ``GAPError/periodicTrainNotFound`` after `findTimeout`, or
    /// ``GAPError/periodicSyncLost(handle:)``. When the consumer stops iterating (or the
    /// stream is dropped), the host sends Create Sync Cancel before establishment and
    /// Terminate Sync after.
    /// - Parameters:
    ///   - address: the advertiser's address, as an extended scan reports it.
    ///   - addressType: public or random.
    ///   - sid: the advertising set's SID (0–15).
    ///   - skip: how many periodic events the controller may skip after a received one.
    ///   - timeout: silence after which the controller loses the sync, in microseconds
    ///     (100 ms to 163.84 s, in steps of 10 ms).
    ///   - findTimeout: how long to look for the train, in microseconds.
    /// - Throws: ``HostError/gap(_:)`` with ``GAPError/periodicSyncUnsupported`` when the
    ///   controller lacks the feature or the commands, ``GAPError/invalidPeriodicSync(_:)``,
    ///   ``GAPError/periodicSyncPending`` (a sync to the same set is already being
    ///   established); nothing is sent then. Syncs to several trains may run at once: the
    ///   controller takes one Create Sync at a time, so later requests wait their turn in GAP.
    public func synchronize(
        to address: BluetoothAddress, addressType: HCI.AddressType = .public, sid: UInt8, skip: UInt16 = 0,
        timeout: HostTime = 2_000_000, findTimeout: HostTime = 10_000_000
    ) throws -> AsyncThrowingStream<HostPeriodicSyncEvent, any Error> {
        let request = GAPPeriodicSyncRequest(
            advertiser: address, advertiserAddressType: addressType, sid: sid, skip: skip,
            syncTimeout: UInt16(clamping: timeout / 10_000), findTimeout: findTimeout)
        return try synchronize(request)
    }

    /// Synchronises to `request`'s train; see ``synchronize(to:addressType:sid:skip:timeout:findTimeout:)``.
    public func synchronize(_ request: GAPPeriodicSyncRequest) throws -> AsyncThrowingStream<HostPeriodicSyncEvent, any Error> {
        if let closed { throw closed }
        guard driver.isReady else { throw HostError.notStarted }
        let outputs: [GAPOutput]
        do throws(GAPError) {
            outputs = try gap.synchronize(request, at: now)
        } catch {
            throw HostError.gap(error)
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: HostPeriodicSyncEvent.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1024))
        let id = nextPeriodicSession
        nextPeriodicSession += 1
        periodicSessions[id] = HostPeriodicSession(continuation: continuation, request: request, handle: nil)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.periodicStreamEnded(id) }
        }
        apply(outputs)
        return stream
    }

    /// A periodic stream ended on the consumer's side (or was finished by the host): a
    /// session still open is ended in the controller.
    func periodicStreamEnded(_ id: Int) {
        guard let session = periodicSessions.removeValue(forKey: id), closed == nil else { return }
        let outputs: [GAPOutput]?
        if let handle = session.handle {
            outputs = try? gap.terminateSync(handle, at: now)
        } else {
            outputs = try? gap.cancelSynchronizing(to: session.request.advertiser, sid: session.request.sid, at: now)
        }
        if let outputs { apply(outputs) }
    }

    /// Hands a periodic sync's GAP event to its stream; `true` when the event is a report,
    /// which goes nowhere else.
    func deliverPeriodic(_ event: GAPEvent) -> Bool {
        switch event {
        case let .periodicReport(report):
            if let id = periodicSessions.first(where: { $0.value.handle == report.syncHandle })?.key {
                periodicSessions[id]?.continuation.yield(.report(report))
            }
            return true
        case let .periodicSyncEstablished(sync):
            guard let id = pendingPeriodicSession(sync.advertiser, sync.sid) else { return false }
            periodicSessions[id]?.handle = sync.handle
            periodicSessions[id]?.continuation.yield(.established(sync))
        case let .periodicSyncFailed(advertiser, sid, error):
            guard let id = pendingPeriodicSession(advertiser, sid) else { return false }
            periodicSessions.removeValue(forKey: id)?.continuation.finish(throwing: HostError.gap(error))
        case let .periodicSyncLost(handle):
            guard let id = periodicSessions.first(where: { $0.value.handle == handle })?.key else { return false }
            periodicSessions.removeValue(forKey: id)?.continuation.finish(throwing: HostError.gap(.periodicSyncLost(handle: handle)))
        default:
            break
        }
        return false
    }

    /// The session waiting for its sync to `advertiser`'s set `sid`.
    private func pendingPeriodicSession(_ advertiser: BluetoothAddress, _ sid: UInt8) -> Int? {
        periodicSessions.first {
            $0.value.handle == nil && $0.value.request.sid == sid && $0.value.request.advertiser.value == advertiser.value
        }?.key
    }

    /// The transport is gone: every periodic stream ends with `error`.
    func failPeriodicSessions(_ error: HostError) {
        let sessions = periodicSessions
        periodicSessions = [:]
        for session in sessions.values { session.continuation.finish(throwing: error) }
    }
}
