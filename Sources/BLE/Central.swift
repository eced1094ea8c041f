import BLEHost

/// The central role of a ``BLEDevice`` (Core 5.4, Vol 3, Part C, §2.2.2): scans for
/// advertisers and connects to them, like Core Bluetooth's `CBCentralManager`.
///
/// One scan runs at a time: ``scan(filter:options:)`` throws ``BLEError/scanInProgress``
/// while an earlier scan's loop is still running, rather than silently replacing it — a
/// loop that stopped receiving would look like an empty neighbourhood. A scan whose loop
/// ended is stopped before the next one starts.
public actor Central {
    let core: DeviceCore
    let dispatcher: EventDispatcher
    /// The scan running, or reserved by a ``scan(filter:options:)`` call starting it.
    private var current: ScanSession?
    /// The controller's scan being stopped; a new scan or a connection waits for it.
    private var stopping: Task<Void, Never>?

    init(core: DeviceCore, dispatcher: EventDispatcher) {
        self.core = core
        self.dispatcher = dispatcher
    }

    // MARK: Scanning

    /// Starts scanning (Vol 3, Part C, §9.2.5–9.2.6) and returns the advertisements that
    /// pass `filter`. The scan is running when this returns, so no report is missed
    /// between the call and the loop; it stops when the loop ends.
    ///
    /// ```swift
    /// for await advertisement in try await device.central.scan(filter: ScanFilter(serviceUUIDs: [0x180D])) {
    ///     print(advertisement.address, advertisement.localName ?? "?", advertisement.rssi ?? 0)
    ///     break  // ends the scan
    /// }
    /// ```
    /// - Throws: ``BLEError/scanInProgress`` while another scan of this central runs,
    ///   ``BLEError/invalidParameters(_:)``, or the controller's refusal.
    public func scan(filter: ScanFilter = ScanFilter(), options: ScanOptions = ScanOptions()) async throws(BLEError) -> ScanResults {
        let parameters = try options.gapParameters(filter: filter)
        if let current {
            guard current.hasEnded else { throw .scanInProgress }
            retire(current)
        }
        await waitForStop()
        guard current == nil else { throw .scanInProgress }  // another call started one meanwhile
        if Task.isCancelled { throw .cancelled }
        let session = ScanSession(central: self)
        current = session
        let start = core.host.now
        do {
            let stream = try await core.host.startScanning(parameters)
            return ScanResults(stream: stream, session: session, sieve: ScanSieve(filter: filter, allowDuplicates: options.allowDuplicates),
                               start: start)
        } catch {
            if current === session { current = nil }
            throw core.translate(error)
        }
    }

    /// A scan ended: stop the controller's scan, after any earlier stop.
    func scanEnded(_ session: ScanSession) {
        guard current === session else { return }
        retire(session)
    }

    /// Returns once no controller scan is being stopped.
    func waitForStop() async {
        while let pending = stopping {
            await pending.value
            if stopping == pending { stopping = nil }
        }
    }

    private func retire(_ session: ScanSession) {
        current = nil
        let previous = stopping
        let host = core.host
        stopping = Task {
            await previous?.value
            // Refused only when the scan is already off (the host closed): nothing to stop.
            try? await host.stopScanning()
        }
    }

    // MARK: Connecting

    /// Connects to the device at `address` (Vol 3, Part C, §9.3.6, direct connection
    /// establishment), waiting at most `timeout` once the attempt reaches the controller.
    /// Cancelling the task cancels the attempt (LE Create Connection Cancel).
    ///
    /// The link is returned once the peer has answered on it (the LL feature exchange):
    /// a link it never answered on, ended with Connection Failed to be Established (0x3E,
    /// Vol 6, Part B, §4.5.2), is replaced by a new attempt, up to three within `timeout`.
    /// - Parameters:
    ///   - address: the peer, with its address type.
    ///   - parameters: the connection parameters to ask for.
    ///   - timeout: how long the controller may try, over all attempts.
    /// - Throws: ``BLEError/timeout``, ``BLEError/cancelled``,
    ///   ``BLEError/connectionFailed(_:)`` (also when the peer never answered on three links),
    ///   ``BLEError/invalidParameters(_:)``.
    public func connect(
        to address: BluetoothAddress, parameters: ConnectionParameterRequest = ConnectionParameterRequest(),
        timeout: Duration = .seconds(5)
    ) async throws(BLEError) -> Connection {
        let wanted = try parameters.hciParameters()
        guard ConnectionParameters.microseconds(timeout) > 0 else { throw .invalidParameters("the connection timeout must be positive") }
        // The host's clock: virtual time in a simulated world.
        let clock = core.host.clock
        let deadline = clock.microseconds + timeout.wholeMicroseconds
        func remaining() -> Duration { .microseconds(deadline - clock.microseconds) }
        var attempt = 1
        while true {
            let connection = try await attemptConnection(to: address, wanted, timeout: remaining())
            // LE Connection Complete comes when the CONNECT_IND was sent; the feature exchange
            // shows the peer got it (docs/decisions/0056-a-new-link-is-confirmed-before-connect-returns.md).
            if await core.host.peerAnswered(on: connection.handle, within: max(remaining(), .seconds(1))) {
                return connection
            }
            // The peer never answered on the link (0x3E): its receiver missed the
            // CONNECT_IND, as happens on a busy channel. Try again while time lasts.
            attempt += 1
            guard attempt <= Self.establishmentAttempts, remaining() > .zero else {
                throw .connectionFailed("the peer never answered on \(attempt - 1) new links (\(HCI.StatusCode.connectionFailedToBeEstablished))")
            }
        }
    }

    /// How many links a ``connect(to:parameters:timeout:)-(BluetoothAddress,_,_)`` call
    /// makes before it gives up on a peer that never answers on them.
    static let establishmentAttempts = 3

    /// One connection attempt: LE Create Connection up to LE Connection Complete.
    private func attemptConnection(
        to address: BluetoothAddress, _ wanted: HCI.LEConnectionParameters, timeout: Duration
    ) async throws(BLEError) -> Connection {
        let microseconds = ConnectionParameters.microseconds(timeout)
        guard microseconds > 0 else { throw .timeout }
        // Some controllers refuse to initiate while their scan is being turned off.
        await waitForStop()
        if Task.isCancelled { throw .cancelled }
        let request = GAPConnectRequest(
            peer: address, peerAddressType: address.kind == .random ? .random : .public, parameters: wanted, timeout: microseconds)
        let host = core.host
        let link: GAPConnection
        do {
            link = try await withTaskCancellationHandler {
                try await host.connect(request)
            } onCancel: {
                Task { try? await host.cancelConnect(to: address) }
            }
        } catch {
            switch core.translate(error) {
            case let .procedureFailed(why): throw .connectionFailed(why)
            case let translated: throw translated
            }
        }
        return await dispatcher.claim(link)
    }

    /// Connects to the device that sent `advertisement`; see
    /// ``connect(to:parameters:timeout:)-(BluetoothAddress,_,_)``.
    public func connect(
        to advertisement: Advertisement, parameters: ConnectionParameterRequest = ConnectionParameterRequest(),
        timeout: Duration = .seconds(5)
    ) async throws(BLEError) -> Connection {
        try await connect(to: advertisement.address, parameters: parameters, timeout: timeout)
    }
}
