import BLEWire

// The ATT bearer, GATT client and GATT server of each connection, driven by the host
// (DESIGN.md: the actor feeds the sans-IO cores and carries out what they return).

extension Host {
    // MARK: Server

    /// Replaces our GATT server's services (Core 5.4, Vol 3, Part G, §3): the database is
    /// laid out again from `services` after the GAP and GATT services, and every client
    /// that enabled Service Changed indications is told which handles changed (§7.1;
    /// ``GATTDatabase/changedHandles(since:)``).
    /// Per-client configurations are kept for handles that still exist.
    /// - Returns: the new database, with the handles assigned.
    /// - Throws: ``GATTDatabaseError`` when a definition cannot be laid out.
    @discardableResult
    public func publishGATT(_ services: [GATTServiceDefinition],
                            configuration: GATTDatabase.Configuration = .init()) throws(GATTDatabaseError) -> GATTDatabase {
        let database = try GATTDatabase(services: services, configuration: configuration)
        let old = gattServer
        gattServer = GATTServer(database: database, configuration: gattServer.configuration)
        for handle in attLinks.keys.sorted() {
            if let record = old.clientRecord(for: handle) { gattServer.restore(record, for: handle) }
            gattServer.setMTU(attLinks[handle]?.bearer.mtu ?? ATTBearerConfiguration.defaultMTU, for: handle)
        }
        guard let changed = database.changedHandles(since: old.database) else { return database }
        for (connection, pdu) in gattServer.serviceChangedIndications(for: changed) {
            Task { try? await self.sendIndication(pdu, on: connection) }
        }
        return database
    }

    /// Our GATT server's database, with its current stored values.
    public var gattDatabase: GATTDatabase { gattServer.database }

    /// Answers a ``HostGATTEvent/readRequest(_:)`` or ``HostGATTEvent/writeRequest(_:)``:
    /// the value read (from the request's offset) or an ATT error code; a write's success is
    /// `.success([])`. Answers to unknown or already answered requests are ignored.
    public func respond(to request: GATTAppRequest.ID, with result: Result<[UInt8], ATT.ErrorCode>) {
        // The link's security now, not when the request came: its key may have changed since.
        let security = gattServer.connection(awaiting: request).map(linkSecurity)
        serve(gattServer.respond(to: request, with: result, security: security))
    }

    /// Sets a stored value of our server (e.g. a new battery level before notifying it).
    /// - Returns: `false` when `handle` holds no stored value.
    @discardableResult
    public func setGATTValue(_ value: [UInt8], for handle: ATT.Handle) -> Bool {
        gattServer.setValue(value, for: handle)
    }

    /// Gives our server the CSRK the client on `connection` distributed when it bonded, so
    /// its Signed Write Commands are verified (Core 5.4, Vol 3, Part H, §2.4.5; Part G,
    /// §4.9.2); `counter` is the next SignCounter accepted. Nothing happens if the link is
    /// gone: the key must not wait there for the next link that reuses the handle.
    public func setSigningKey(_ csrk: UInt128, counter: UInt32, for connection: UInt16) {
        guard attLinks.index(forKey: connection) != nil else { return }
        gattServer.setSigningKey(csrk, counter: counter, for: connection)
    }

    /// The clients subscribed to the characteristic whose value is at `valueHandle`.
    public func subscriptions(of valueHandle: ATT.Handle) -> [GATTSubscription] {
        gattServer.subscriptions(of: valueHandle)
    }

    /// Notifies `value` (cut to ATT_MTU − 3, §3.4.7.1) to the client on `connection`,
    /// whether or not it subscribed: the caller checks ``subscriptions(of:)``. Suspends
    /// while the controller's buffers for the link are full, so a fast sender is paced by
    /// the air and nothing is dropped.
    /// - Throws: ``HostError`` when the link is gone, ``ATTBearerError`` when the bearer is
    ///   closed.
    public func notify(_ value: [UInt8], valueHandle: ATT.Handle, on connection: UInt16) async throws {
        try await waitForACLRoom(connection)
        // Through an inout access: a plain call on the stored server copied all of it first.
        guard let pdu = Self.inPlace(&gattServer, { $0.notification(of: valueHandle, value: value, for: connection) }),
              let outputs = try withATTLink(connection, { try $0.bearer.sendNotification(pdu) })
        else { throw HostError.gap(.unknownConnection(handle: connection)) }
        carryOut(outputs, attLink: connection)
    }

    /// Indicates `value` to the client on `connection` and returns once it confirmed
    /// (§3.4.7.2; one indication outstanding per bearer, later ones wait their turn).
    /// - Throws: ``ATTBearerError/timedOut`` when no confirmation came within 30 s (the
    ///   bearer is then closed), ``HostError`` when the link is gone.
    public func indicate(_ value: [UInt8], valueHandle: ATT.Handle, on connection: UInt16) async throws {
        guard let pdu = gattServer.indication(of: valueHandle, value: value, for: connection) else {
            throw HostError.gap(.unknownConnection(handle: connection))
        }
        try await sendIndication(pdu, on: connection)
    }

    private func sendIndication(_ pdu: [UInt8], on connection: UInt16) async throws {
        guard attLinks.index(forKey: connection) != nil else { throw HostError.gap(.unknownConnection(handle: connection)) }
        let time = now
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            guard var att = attLinks[connection] else {
                continuation.resume(throwing: HostError.gap(.unknownConnection(handle: connection)))
                return
            }
            do {
                let (id, outputs) = try att.bearer.sendIndication(pdu, at: time)
                att.indications[id] = continuation
                attLinks[connection] = att
                carryOut(outputs, attLink: connection)
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    // MARK: Client

    /// Runs one GATT client procedure on `connection` (Core 5.4, Vol 3, Part G, §4) and
    /// returns its result; procedures on one connection run one after another. When the
    /// server answers Insufficient Authentication, Insufficient Encryption or Encryption Key
    /// Size Too Short and the handler of ``setSecurityUpgradeHandler(_:)`` says it raised
    /// the link's security, the procedure runs once more, as phones do.
    /// - Throws: ``GATTClientError`` (an ATT error with its handle, a timeout, a
    ///   disconnection, an invalid response), or ``HostError`` when there is no such link.
    public func gatt(_ procedure: GATTProcedure, on connection: UInt16) async throws -> GATTClientResult {
        do {
            return try await runGATT(procedure, on: connection)
        } catch let GATTClientError.att(code, handle) where Self.securityErrors.contains(code) {
            guard let handler = securityUpgradeHandler, await handler(connection, code) else {
                throw GATTClientError.att(code, handle: handle)
            }
            return try await runGATT(procedure, on: connection)
        }
    }

    /// One run of `procedure`, without the security retry.
    private func runGATT(_ procedure: GATTProcedure, on connection: UInt16) async throws -> GATTClientResult {
        HostLog.gatt.debug("\(procedure)", metadata: logMetadata(connection))
        do {
            return try await startGATT(procedure, on: connection)
        } catch {
            HostLog.gatt.debug("\(procedure) failed: \(error)", metadata: logMetadata(connection))
            throw error
        }
    }

    private func startGATT(_ procedure: GATTProcedure, on connection: UInt16) async throws -> GATTClientResult {
        guard attLinks.index(forKey: connection) != nil else { throw HostError.gap(.unknownConnection(handle: connection)) }
        let time = now
        return try await withCheckedThrowingContinuation { continuation in
            guard let step = withATTLink(connection, { att in
                let (id, step) = att.client.start(procedure, on: &att.bearer, at: time)
                att.procedures[id] = continuation
                return step
            }) else {
                continuation.resume(throwing: HostError.gap(.unknownConnection(handle: connection)))
                return
            }
            carryOut(step, attLink: connection)
        }
    }

    /// Writes without response (Write Command, §4.9.1), suspending while the controller's
    /// buffers for the link are full, like Core Bluetooth's `canSendWriteWithoutResponse`.
    /// - Throws: ``GATTClientError/valueTooLong(length:maximum:)`` beyond ATT_MTU − 3, or
    ///   ``HostError`` when the link is gone.
    public func writeWithoutResponse(_ value: [UInt8], to handle: ATT.Handle, on connection: UInt16) async throws {
        try await waitForACLRoom(connection)
        guard let outputs = try withATTLink(connection, { att in try att.client.writeWithoutResponse(value, to: handle, on: &att.bearer) })
        else { throw HostError.gap(.unknownConnection(handle: connection)) }
        carryOut(outputs, attLink: connection)
    }

    /// Signed Write Without Response (Core 5.4, Vol 3, Part G, §4.9.2): a Write Command
    /// signed with `csrk` and `signCounter` (Part H, §2.4.5), paced like
    /// ``writeWithoutResponse(_:to:on:)``. The caller never uses a counter twice.
    /// - Throws: ``GATTClientError/valueTooLong(length:maximum:)`` beyond ATT_MTU − 15, or
    ///   ``HostError`` when the link is gone.
    public func signedWrite(_ value: [UInt8], to handle: ATT.Handle, csrk: UInt128, signCounter: UInt32,
                            on connection: UInt16) async throws {
        try await waitForACLRoom(connection)
        guard var att = attLinks[connection] else { throw HostError.gap(.unknownConnection(handle: connection)) }
        let outputs = try att.client.signedWrite(value, to: handle, csrk: csrk, signCounter: signCounter, on: &att.bearer)
        attLinks[connection] = att
        carryOut(outputs, attLink: connection)
    }

    /// Tells the GATT client of `connection` where the peer's Service Changed values are
    /// (§7.1) when its tree came from a cache rather than discovery, so their indications
    /// still invalidate what they name.
    public func setServiceChangedHandles(_ handles: Set<ATT.Handle>, on connection: UInt16) {
        attLinks[connection]?.client.serviceChangedValueHandles.formUnion(handles)
    }

    /// Signed Write Commands our server dropped since its database was published (see
    /// ``GATTServer/signedWritesDropped``).
    public var signedWritesDropped: Int { gattServer.signedWritesDropped }

    /// ATT_MTU of `connection`'s bearer (23 until an Exchange MTU), `nil` without a link.
    public func attMTU(on connection: UInt16) -> Int? { attLinks[connection]?.bearer.mtu }

    /// Whether a write without response or a notification on `connection` would go to the
    /// controller at once rather than wait for its buffers.
    public func canSendWithoutWaiting(on connection: UInt16) -> Bool {
        attLinks.index(forKey: connection) != nil && driver.queuedACLFragments(handle: connection) < Self.aclQueueLimit
    }

    /// The bearer's counters (unmatched responses, malformed PDUs, protocol violations).
    public func attCounters(on connection: UInt16) -> ATTBearerCounters? { attLinks[connection]?.bearer.counters }
}
