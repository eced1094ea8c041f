import BLEWire

extension GAPCore {
    // MARK: Connecting

    /// Connects to `request.peer` as central (Vol 3, Part C, §9.3.6). One attempt runs in
    /// the controller at a time; later requests wait in order. The attempt ends with
    /// ``GAPEvent/connected(_:)`` or ``GAPEvent/connectionFailed(peer:_:)`` — with
    /// ``GAPError/timeout`` when `request.timeout` passes first.
    public mutating func connect(_ request: GAPConnectRequest, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        if links.values.contains(where: { $0.peer.value == request.peer.value }) { throw .alreadyConnected(request.peer) }
        if pending?.request.peer.value == request.peer.value || queued.contains(where: { $0.peer.value == request.peer.value }) {
            throw .alreadyConnecting(request.peer)
        }
        if request.useRandomAddress, randomAddress == nil { throw .noRandomAddress }
        if let phys = request.initiatingPHYs {
            guard supportsExtendedConnection else { throw .extendedConnectionUnsupported }
            guard phys.rawValue & ~0b111 == 0, !phys.intersection([.le1M, .leCoded]).isEmpty else {
                throw .unsupportedInitiatingPHYs(phys.rawValue)
            }
            if phys.contains(.leCoded), !supportsCodedPHY { throw .codedPHYUnsupported }
        }
        guard pending == nil else {
            queued.append(request)
            return []
        }
        return begin(request, at: now)
    }

    /// Abandons the attempt to connect to `peer`: a queued one at once, the pending one with
    /// LE Create Connection Cancel (§7.8.13). It ends with
    /// ``GAPEvent/connectionFailed(peer:_:)`` and ``GAPError/cancelled``, unless the
    /// connection was made first.
    public mutating func cancelConnect(to peer: BluetoothAddress, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        if let index = queued.firstIndex(where: { $0.peer.value == peer.value }) {
            let request = queued.remove(at: index)
            return [.event(.connectionFailed(peer: request.peer, .cancelled))]
        }
        guard var attempt = pending, attempt.request.peer.value == peer.value else { throw .notConnecting(peer) }
        guard attempt.cancelReason == nil else { return [] }
        attempt.cancelReason = .cancelled
        attempt.deadline = nil
        pending = attempt
        return [submit(HCI.LECreateConnectionCancel(), for: .createConnectionCancel)]
    }

    /// The pending attempt's timeout passed: cancel it in the controller (and the pending
    /// periodic sync's, GAPCore+PeriodicSync.swift).
    public mutating func timerFired(at now: HostTime) -> [GAPOutput] {
        let sync = periodicSyncTimerFired(at: now)
        guard var attempt = pending, let deadline = attempt.deadline, deadline <= now else { return sync }
        attempt.deadline = nil
        attempt.cancelReason = .timeout
        pending = attempt
        return sync + [submit(HCI.LECreateConnectionCancel(), for: .createConnectionCancel)]
    }

    /// Sends LE Create Connection for `request`, or LE Extended Create Connection when it
    /// names initiating PHYs or the controller takes the extended family (LE 1M then), and
    /// makes it the pending attempt.
    mutating func begin(_ request: GAPConnectRequest, at now: HostTime) -> [GAPOutput] {
        pending = PendingConnection(request: request, deadline: now &+ request.timeout, cancelReason: nil)
        if let phys = initiatingPHYs(request) {
            let each = HCI.LEExtendedCreateConnection.PHYParameters(
                scanInterval: request.scanInterval, scanWindow: request.scanWindow, connectionParameters: request.parameters)
            return [submit(HCI.LEExtendedCreateConnection(
                ownAddressType: ownAddressType(random: request.useRandomAddress), peerAddressType: request.peerAddressType,
                peerAddress: request.peer, le1M: phys.contains(.le1M) ? each : nil, le2M: phys.contains(.le2M) ? each : nil,
                leCoded: phys.contains(.leCoded) ? each : nil), for: .createConnection(request.peer))]
        }
        return [submit(HCI.LECreateConnection(
            leScanInterval: request.scanInterval, leScanWindow: request.scanWindow, peerAddressType: request.peerAddressType,
            peerAddress: request.peer, ownAddressType: ownAddressType(random: request.useRandomAddress),
            connectionParameters: request.parameters), for: .createConnection(request.peer))]
    }

    /// The pending attempt ended; the next queued request starts.
    mutating func finishPending(failure: GAPError?, at now: HostTime) -> [GAPOutput] {
        guard let attempt = pending else { return [] }
        pending = nil
        var outputs: [GAPOutput] = []
        if let failure { outputs.append(.event(.connectionFailed(peer: attempt.request.peer, failure))) }
        while pending == nil, !queued.isEmpty {
            let next = queued.removeFirst()
            if links.values.contains(where: { $0.peer.value == next.peer.value }) {
                outputs.append(.event(.connectionFailed(peer: next.peer, .alreadyConnected(next.peer))))
                continue
            }
            outputs += begin(next, at: now)
        }
        return outputs
    }

    // MARK: Link procedures

    /// Terminates the connection with `reason` (Vol 3, Part C, §9.3.10; Vol 4, Part E,
    /// §7.1.6); ``GAPEvent/disconnected(handle:reason:)`` follows on both sides.
    public mutating func disconnect(
        _ handle: UInt16, reason: HCI.StatusCode = .remoteUserTerminatedConnection, at now: HostTime
    ) throws(GAPError) -> [GAPOutput] {
        guard links[handle] != nil else { throw .unknownConnection(handle: handle) }
        return [submit(HCI.Disconnect(connectionHandle: handle, reason: reason), for: .procedure(.disconnect(handle: handle)))]
    }

    /// The central's connection parameter update (Vol 3, Part C, §9.3.9; Vol 4, Part E,
    /// §7.8.18). A peripheral asks through L2CAP instead (``L2CAPLink``); both sides get
    /// ``GAPEvent/connectionParametersUpdated(handle:_:)``.
    public mutating func updateConnectionParameters(
        _ handle: UInt16, _ parameters: HCI.LEConnectionParameters, at now: HostTime
    ) throws(GAPError) -> [GAPOutput] {
        guard let link = links[handle] else { throw .unknownConnection(handle: handle) }
        guard link.role == .central else { throw .notCentral(handle: handle) }
        return [submit(HCI.LEConnectionUpdate(connectionHandle: handle, connectionParameters: parameters),
                       for: .procedure(.connectionParameterUpdate(handle: handle)))]
    }

    /// Asks the controller for longer data PDUs (Vol 4, Part E, §7.8.33); a change comes as
    /// ``GAPEvent/dataLengthChanged(handle:_:)``.
    public mutating func setDataLength(
        _ handle: UInt16, txOctets: UInt16, txTime: UInt16, at now: HostTime
    ) throws(GAPError) -> [GAPOutput] {
        guard links[handle] != nil else { throw .unknownConnection(handle: handle) }
        return [submit(HCI.LESetDataLength(connectionHandle: handle, txOctets: txOctets, txTime: txTime),
                       for: .procedure(.dataLengthUpdate(handle: handle)))]
    }

    /// Asks for other PHYs (Vol 4, Part E, §7.8.49); the outcome comes as
    /// ``GAPEvent/phyUpdated(handle:tx:rx:)``. LE Coded in `tx` or `rx` needs the controller's
    /// LE Coded PHY feature (``GAPError/codedPHYUnsupported`` otherwise); `codedOptions` is
    /// the coding this side prefers to send with on it (PHY_Options: S=2, S=8 or either).
    public mutating func setPHY(
        _ handle: UInt16, tx: HCI.LEPHYs, rx: HCI.LEPHYs,
        codedOptions: HCI.LESetPHY.CodedPHYOptions = .noPreference, at now: HostTime
    ) throws(GAPError) -> [GAPOutput] {
        guard links[handle] != nil else { throw .unknownConnection(handle: handle) }
        if tx.union(rx).contains(.leCoded), !supportsCodedPHY { throw .codedPHYUnsupported }
        let command = HCI.LESetPHY(connectionHandle: handle, txPHYs: tx, rxPHYs: rx, phyOptions: codedOptions)
        return [submit(command, for: .procedure(.phyUpdate(handle: handle)))]
    }

    /// Reads the PHYs the connection is on (Vol 4, Part E, §7.8.47); the answer comes as
    /// ``GAPEvent/phyRead(handle:tx:rx:)`` and is kept in the link's ``GAPConnection/txPHY``
    /// and ``GAPConnection/rxPHY``.
    public mutating func readPHY(_ handle: UInt16, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard links[handle] != nil else { throw .unknownConnection(handle: handle) }
        return [submit(HCI.LEReadPHY(connectionHandle: handle), for: .procedure(.readPHY(handle: handle)))]
    }

    /// Reads the connection's RSSI (Vol 4, Part E, §7.5.4); the value comes as
    /// ``GAPEvent/rssi(handle:_:)``.
    public mutating func readRSSI(_ handle: UInt16, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard links[handle] != nil else { throw .unknownConnection(handle: handle) }
        return [submit(HCI.ReadRSSI(connectionHandle: handle), for: .procedure(.readRSSI(handle: handle)))]
    }

    /// Asks a simulated controller where its device is (``HCI/ReadSimulatedLocation``); the
    /// answer comes as ``GAPEvent/simulatedLocation(_:)``, a controller without the command
    /// fails the procedure with Unknown HCI Command (0x01).
    public mutating func readSimulatedLocation(at now: HostTime) -> [GAPOutput] {
        [submit(HCI.ReadSimulatedLocation(), for: .procedure(.readSimulatedLocation))]
    }

    /// Asks the peer for its LE features (Vol 4, Part E, §7.8.21; the exchange is Vol 6,
    /// Part B, §5.1.4); they come as ``GAPEvent/remoteFeatures(handle:_:)``.
    public mutating func readRemoteFeatures(_ handle: UInt16, at now: HostTime) throws(GAPError) -> [GAPOutput] {
        guard links[handle] != nil else { throw .unknownConnection(handle: handle) }
        return [submit(HCI.LEReadRemoteFeatures(connectionHandle: handle), for: .procedure(.readRemoteFeatures(handle: handle)))]
    }
}
