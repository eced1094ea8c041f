import BLEWire
import Synchronization

extension Host {
    // MARK: Connection procedures

    /// Asks for new connection parameters (Vol 3, Part C, §9.3.9) and returns the ones in
    /// force afterwards. A central applies them with HCI LE Connection Update (Vol 4,
    /// Part E, §7.8.18); a peripheral asks its central with an L2CAP Connection Parameter
    /// Update Request (Vol 3, Part A, §4.20) and returns when the central has applied them.
    /// - Throws: ``HostError/parameterUpdateRejected`` when the central says no,
    ///   ``HostError/disconnected(handle:reason:)`` when the link goes down first, or the
    ///   GAP error of a refused request.
    @discardableResult
    public func updateConnectionParameters(
        _ handle: UInt16, to parameters: HCI.LEConnectionParameters
    ) async throws -> GAPConnectionParameters {
        if let closed { throw closed }
        guard let connection = gap.connection(handle) else { throw HostError.gap(.unknownConnection(handle: handle)) }
        if connection.role == .central {
            let event = try await perform({ gap, now throws(GAPError) in try gap.updateConnectionParameters(handle, parameters, at: now) }) { event in
                switch event {
                case .connectionParametersUpdated(handle, _): return .success(event)
                case let .procedureFailed(.connectionParameterUpdate(handle: failed), error) where failed == handle: return .failure(error)
                case let .disconnected(down, reason) where down == handle: return .failure(.controller(reason))
                default: return nil
                }
            }
            guard case let .connectionParametersUpdated(_, updated) = event else { return connection.parameters }
            return updated
        }
        // One request at a time per link (§4.20 allows one outstanding request).
        guard parameterUpdateWaiters[handle] == nil else { throw HostError.gap(.controller(.commandDisallowed)) }
        return try await withCheckedThrowingContinuation { continuation in
            parameterUpdateWaiters[handle] = continuation
            let outputs = links[handle]?.requestConnectionParameterUpdate(
                intervalMin: parameters.connectionIntervalMin, intervalMax: parameters.connectionIntervalMax,
                latency: parameters.maxLatency, timeout: parameters.supervisionTimeout, at: now) ?? []
            carryOut(outputs, link: handle)
        }
    }

    /// Asks the controller for longer data PDUs (Vol 4, Part E, §7.8.33). The controller
    /// reports a change, if the peer agrees to one, as
    /// ``GAPEvent/dataLengthChanged(handle:_:)`` on ``events``; an unchanged length gives
    /// no event (§7.7.65.7), so this returns once the request is sent.
    public func setDataLength(_ handle: UInt16, txOctets: UInt16 = 251, txTime: UInt16 = 2120) throws {
        if let closed { throw closed }
        do throws(GAPError) {
            apply(try gap.setDataLength(handle, txOctets: txOctets, txTime: txTime, at: now))
        } catch {
            throw HostError.gap(error)
        }
    }

    /// Asks for other PHYs (Vol 4, Part E, §7.8.49) and returns the PHYs in use once the
    /// controller reports the outcome (LE PHY Update Complete comes even when nothing
    /// changed, §7.7.65.12). LE Coded needs the controller's LE Coded PHY feature;
    /// `codedOptions` is the coding this side prefers to send with on it.
    @discardableResult
    public func setPHY(
        _ handle: UInt16, tx: HCI.LEPHYs, rx: HCI.LEPHYs, codedOptions: HCI.LESetPHY.CodedPHYOptions = .noPreference
    ) async throws -> (tx: HCI.PHY, rx: HCI.PHY) {
        let event = try await perform({ gap, now throws(GAPError) in
            try gap.setPHY(handle, tx: tx, rx: rx, codedOptions: codedOptions, at: now)
        }) { event in
            switch event {
            case .phyUpdated(handle, _, _): return .success(event)
            case let .procedureFailed(.phyUpdate(handle: failed), error) where failed == handle: return .failure(error)
            case let .disconnected(down, reason) where down == handle: return .failure(.controller(reason))
            default: return nil
            }
        }
        guard case let .phyUpdated(_, txPHY, rxPHY) = event else { throw HostError.gap(.unknownConnection(handle: handle)) }
        return (txPHY, rxPHY)
    }

    /// Reads the PHYs the connection is on, transmit and receive (Vol 4, Part E, §7.8.47):
    /// LE 1M after LE Create Connection, the PHY of the AUX_CONNECT_REQ for a connection made
    /// over extended advertising (Vol 6, Part B, §4.5), whatever a PHY update made since.
    public func readPHY(_ handle: UInt16) async throws -> (tx: HCI.PHY, rx: HCI.PHY) {
        let event = try await perform({ gap, now throws(GAPError) in try gap.readPHY(handle, at: now) }) { event in
            switch event {
            case .phyRead(handle, _, _): return .success(event)
            case let .procedureFailed(.readPHY(handle: failed), error) where failed == handle: return .failure(error)
            default: return nil
            }
        }
        guard case let .phyRead(_, tx, rx) = event else { throw HostError.gap(.unknownConnection(handle: handle)) }
        return (tx, rx)
    }

    /// Reads the connection's RSSI in dBm (Vol 4, Part E, §7.5.4).
    public func readRSSI(_ handle: UInt16) async throws -> Int8 {
        let event = try await perform({ gap, now throws(GAPError) in try gap.readRSSI(handle, at: now) }) { event in
            switch event {
            case .rssi(handle, _): return .success(event)
            case let .procedureFailed(.readRSSI(handle: failed), error) where failed == handle: return .failure(error)
            default: return nil
            }
        }
        guard case let .rssi(_, value) = event else { throw HostError.gap(.unknownConnection(handle: handle)) }
        return value
    }

    /// Where the device is in its simulated world (SwiftBLE's vendor command,
    /// ``HCI/ReadSimulatedLocation``).
    /// - Throws: ``HostError/gap(_:)`` with ``HCI/StatusCode/unknownHCICommand`` from a
    ///   controller that is not simulated (no location is known there).
    public func readSimulatedLocation() async throws -> HCI.ReadSimulatedLocation.ReturnParameters {
        let event = try await perform({ gap, now throws(GAPError) in gap.readSimulatedLocation(at: now) }) { event in
            switch event {
            case .simulatedLocation: return .success(event)
            case let .procedureFailed(.readSimulatedLocation, error): return .failure(error)
            default: return nil
            }
        }
        guard case let .simulatedLocation(answer) = event else { throw HostError.gap(.malformedAnswer(WireError(field: "HCI.ReadSimulatedLocation", reason: .constraint("no answer")))) }
        return answer
    }

    /// Reads the peer's LE feature bits (Vol 4, Part E, §7.8.21): the controller runs the
    /// feature exchange (Vol 6, Part B, §5.1.4), so an answer also proves that the peer is on
    /// the link (§4.5.2 calls it established once a packet from it has been received).
    /// - Throws: ``HostError/gap(_:)`` with the controller's status when it refuses or the
    ///   exchange fails, e.g. ``HCI/StatusCode/connectionFailedToBeEstablished`` (0x3E) when
    ///   the link went down before the peer was ever heard.
    public func readRemoteFeatures(_ handle: UInt16) async throws -> UInt64 {
        let event = try await perform({ gap, now throws(GAPError) in try gap.readRemoteFeatures(handle, at: now) }) { event in
            switch event {
            case .remoteFeatures(handle, _): return .success(event)
            case let .procedureFailed(.readRemoteFeatures(handle: failed), error) where failed == handle: return .failure(error)
            case let .disconnected(down, reason) where down == handle: return .failure(.controller(reason))
            default: return nil
            }
        }
        guard case let .remoteFeatures(_, features) = event else { throw HostError.gap(.unknownConnection(handle: handle)) }
        return features
    }

    /// Whether the peer is on the new link `handle`, for a central right after LE
    /// Connection Complete, which comes when the CONNECT_IND was sent, not when the peer got
    /// it. `false` when the link ended with Connection Failed to be Established (0x3E, Vol 6,
    /// Part B, §4.5.2: the peer was never heard); `true` once the feature exchange
    /// (``readRemoteFeatures(_:)``) completes, when the controller refuses it or the link
    /// ends otherwise, and when `limit` passes first (nothing more can be learnt).
    public nonisolated func peerAnswered(on handle: UInt16, within limit: Duration) async -> Bool {
        let answered = Mutex(true)
        // Whichever finishes the stream first ends the wait: the exchange or the time limit.
        let (done, finish) = AsyncStream.makeStream(of: Never.self)
        let exchange = Task {
            do {
                _ = try await self.readRemoteFeatures(handle)
            } catch HostError.gap(.controller(.connectionFailedToBeEstablished)) {
                answered.withLock { $0 = false }
            } catch {
                // Refused, or down already when the request came (Unknown Connection
                // Identifier): the reason the link ended, if it did, still tells.
                if await self.lastDisconnectionReasons[handle] == .connectionFailedToBeEstablished {
                    answered.withLock { $0 = false }
                }
            }
            finish.finish()
        }
        let clock = self.clock
        let timer = Task {
            try? await clock.sleep(for: limit)
            finish.finish()
        }
        for await _ in done {}
        timer.cancel()
        _ = exchange  // left running past the limit: its waiter ends with the link
        return answered.withLock { $0 }
    }

    /// Cancels a pending or queued connection attempt to `peer` (Vol 4, Part E, §7.8.13);
    /// its ``connect(_:)`` call fails with ``GAPError/cancelled``.
    public func cancelConnect(to peer: BluetoothAddress) throws {
        if let closed { throw closed }
        do throws(GAPError) {
            apply(try gap.cancelConnect(to: peer, at: now))
        } catch {
            throw HostError.gap(error)
        }
    }

    /// Sets the random static address used when a request asks for a random address
    /// (Vol 3, Part C, §10.8.1; Vol 4, Part E, §7.8.4).
    public func setRandomStaticAddress(_ address: BluetoothAddress) async throws {
        try await perform({ gap, now throws(GAPError) in try gap.setRandomStaticAddress(address, at: now) }) { event in
            switch event {
            case .randomAddressSet: return .success(event)
            case let .procedureFailed(.setRandomAddress, error): return .failure(error)
            default: return nil
            }
        }
    }

    /// Makes the random static address `address` ours on the air from now on (Vol 3,
    /// Part C, §10.8.1): it is set in the controller, and advertising, scanning and
    /// connecting use it whatever their `useRandomAddress` says, as a device without a
    /// public address does. Privacy, when enabled, replaces the random address with its
    /// private ones.
    /// - Throws: ``HostError/gap(_:)`` with ``GAPError/invalidRandomStaticAddress(_:)`` or
    ///   ``GAPError/randomAddressChangeWhileBusy``.
    public func useRandomStaticAddress(_ address: BluetoothAddress) async throws {
        try await setRandomStaticAddress(address)
        randomStaticAddressInUse = true
    }

    /// Replaces the advertising data (and scan response) while advertising (§7.8.7–7.8.8).
    public func updateAdvertisingData(_ data: AdvertisingData, scanResponse: AdvertisingData? = nil) async throws {
        try await perform({ gap, now throws(GAPError) in try gap.updateAdvertisingData(data, scanResponse: scanResponse, at: now) }) { event in
            switch event {
            case .advertisingDataUpdated: return .success(event)
            case let .procedureFailed(.advertising, error): return .failure(error)
            default: return nil
            }
        }
    }

    // MARK: Policy and bookkeeping

    /// Central: answers a peripheral's parameter request by ``parameterUpdatePolicy`` and,
    /// on acceptance, applies the values with HCI LE Connection Update (§9.3.9).
    func answerParameterUpdate(handle: UInt16, identifier: UInt8, _ parameters: HCI.LEConnectionParameters) {
        let accept = parameterUpdatePolicy.accepts(parameters)
        carryOut(links[handle]?.answerConnectionParameterUpdate(identifier: identifier, accept: accept) ?? [], link: handle)
        guard accept else { return }
        // A refusal here (the link just went down) leaves nothing to apply.
        if let outputs = try? gap.updateConnectionParameters(handle, parameters, at: now) { apply(outputs) }
    }

    /// Ends a peripheral's parameter request when the new values are in force or the link
    /// is gone.
    func settleParameterUpdate(after event: GAPEvent) {
        switch event {
        case let .connectionParametersUpdated(handle, parameters):
            parameterUpdateWaiters.removeValue(forKey: handle)?.resume(returning: parameters)
        case let .disconnected(handle, reason):
            parameterUpdateWaiters.removeValue(forKey: handle)?.resume(throwing: HostError.disconnected(handle: handle, reason: reason))
        default:
            break
        }
    }

    /// The transport is gone: every channel and parameter request waiting fails.
    func failChannelWaiters(_ error: HostError) {
        let opening = channelOpenWaiters
        channelOpenWaiters = [:]
        for waiter in opening.values { waiter.resume(throwing: error) }
        let updating = parameterUpdateWaiters
        parameterUpdateWaiters = [:]
        for waiter in updating.values { waiter.resume(throwing: error) }
        for id in channels.keys.sorted() where channels[id]?.closed == nil {
            _ = routeChannelOutput(.channelClosed(id, reason: .linkDisconnected), link: id.handle)
        }
        for listener in listeners.values { listener.output.finish() }
        listeners = [:]
    }
}
