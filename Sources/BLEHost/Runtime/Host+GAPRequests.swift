import BLEWire

/// The host's GAP requests: scanning, advertising and connections (Core 5.4, Vol 3, Part C,
/// §9), each waiting for the GAP event that ends its procedure.
extension Host {
    /// Starts scanning (Vol 3, Part C, §9.2.5–9.2.6) and returns the advertisements GAP
    /// reports (new devices and changed data, or every report with duplicates). The stream
    /// ends at ``stopScanning()``.
    public func startScanning(_ parameters: GAPScanParameters = .init()) async throws -> AsyncStream<GAPAdvertisement> {
        let (stream, continuation) = AsyncStream.makeStream(of: GAPAdvertisement.self, bufferingPolicy: .bufferingNewest(4096))
        // The scan GAP runs for periodic syncs is the app's to take over.
        guard !gap.isScanning || gap.isScanningForPeriodicSync else { throw HostError.gap(.scanningAlreadyEnabled) }
        // The stream is in place before the controller can report anything: a report
        // handled while this call resumes would otherwise be lost, and GAP reports each
        // device only once.
        scanOutput?.finish()
        scanOutput = continuation
        do {
            let parameters = withPrivacy(parameters, \.useRandomAddress)
            try await perform({ gap, now throws(GAPError) in try gap.startScanning(parameters, at: now) }) { event in
                switch event {
                case .scanningStarted: return .success(event)
                case let .procedureFailed(.scanning, error): return .failure(error)
                default: return nil
                }
            }
        } catch {
            continuation.finish()
            if !gap.isScanning { scanOutput = nil }
            throw error
        }
        return stream
    }

    /// Stops scanning and ends the advertisement stream.
    public func stopScanning() async throws {
        scanOutput?.finish()
        scanOutput = nil
        try await perform({ gap, now throws(GAPError) in try gap.stopScanning(at: now) }) { event in
            switch event {
            case .scanningStopped: return .success(event)
            case let .procedureFailed(.scanning, error): return .failure(error)
            default: return nil
            }
        }
    }

    /// Sets the advertising parameters and data and enables advertising (Vol 3, Part C,
    /// §9.1–9.3); returns once the controller accepted all of it.
    public func startAdvertising(_ parameters: GAPAdvertisingParameters) async throws {
        let parameters = withPrivacy(parameters, \.useRandomAddress)
        try await perform({ gap, now throws(GAPError) in try gap.startAdvertising(parameters, at: now) }) { event in
            switch event {
            case .advertisingStarted: return .success(event)
            case let .procedureFailed(.advertising, error): return .failure(error)
            default: return nil
            }
        }
    }

    /// Disables advertising; returns once the controller did.
    public func stopAdvertising() async throws {
        try await perform({ gap, now throws(GAPError) in try gap.stopAdvertising(at: now) }) { event in
            switch event {
            case .advertisingStopped: return .success(event)
            case let .procedureFailed(.advertising, error): return .failure(error)
            default: return nil
            }
        }
    }

    /// Connects to a peer as central (Vol 3, Part C, §9.3.6).
    /// - Returns: the connection, whose handle names it in later requests.
    public func connect(_ request: GAPConnectRequest) async throws -> GAPConnection {
        let request = await resolvingPeer(of: withPrivacy(request, \.useRandomAddress))
        let peer = request.peer
        HostLog.gap.debug("connecting to \(peer)", metadata: logMetadata())
        let event = try await perform({ gap, now throws(GAPError) in try gap.connect(request, at: now) }) { event in
            switch event {
            case let .connected(link) where link.peer.value == peer.value: return .success(event)
            case let .connectionFailed(failed, error) where failed.value == peer.value: return .failure(error)
            default: return nil
            }
        }
        guard case let .connected(link) = event else { throw HostError.transportClosed("no connection") }
        return link
    }

    /// Terminates a connection (Vol 3, Part C, §9.3.10); returns once it is down.
    /// Data the link still carries (a last SMP key, a Pairing Failed, a notification) is
    /// given up to ``disconnectDrainLimit`` to be completed first: the controller flushes
    /// a link's buffers when it goes down (Vol 4, Part E, §4.3), which would lose it silently.
    public func disconnect(_ handle: UInt16, reason: HCI.StatusCode = .remoteUserTerminatedConnection) async throws {
        await waitForACLDrain(handle)
        try await perform({ gap, now throws(GAPError) in try gap.disconnect(handle, reason: reason, at: now) }) { event in
            switch event {
            case .disconnected(handle, _): return .success(event)
            case let .procedureFailed(.disconnect(handle: failed), error) where failed == handle: return .failure(error)
            default: return nil
            }
        }
    }
}
