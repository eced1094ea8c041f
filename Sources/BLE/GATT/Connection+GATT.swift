import BLEHost

extension Connection {
    /// The peer's services (Core 5.4, Vol 3, Part G, §4.4): all primary services, or those
    /// of the given types. The first GATT call on a connection exchanges ATT_MTU (§4.3.1)
    /// so later reads and notifications carry up to 514 octets, as Core Bluetooth does.
    ///
    /// Discovery results are kept for the connection, and for a bonded peer in its bond
    /// while its Database Hash stays the same (§2.5.2, §7.3; docs/gatt.md, "The cache"): a
    /// later call, or a later connection to the bonded peer, sends no discovery requests.
    /// - Throws: ``BLEError/att(_:handle:)``, ``BLEError/gattTimedOut``,
    ///   ``BLEError/disconnected(_:)``.
    public func services(_ uuids: [BluetoothUUID]? = nil) async throws(BLEError) -> [RemoteService] {
        try await exchangeMTUOnce()
        try await checkStoredTree()
        var all = trees.with(self) { $0.primaryServices }
        if all == nil {
            guard case let .services(found) = try await gatt(.discoverAllPrimaryServices) else { return [] }
            all = trees.with(self) { tree in
                tree.setPrimaryServices(found)
                return tree.primaryServices
            }
        }
        // Also when nothing was discovered now: the peer may have bonded since.
        await saveTreeIfBonded()
        let services = (all ?? []).map(\.service)
        guard let uuids else { return services.map(RemoteService.init) }
        return uuids.flatMap { wanted in services.filter { $0.uuid == wanted } }.map(RemoteService.init)
    }

    /// The services `service` includes (§4.5.1), kept like ``services(_:)``.
    public func includedServices(of service: RemoteService) async throws(BLEError) -> [RemoteService] {
        try await exchangeMTUOnce()
        try await checkStoredTree()
        if let known = trees.with(self, { $0.service(at: service.handles.lowerBound) }), known.includedServicesDiscovered {
            return known.includedServices.map { RemoteService(uuid: $0.uuid, isPrimary: false, handles: $0.handles) }
        }
        guard case let .includedServices(included) = try await gatt(.findIncludedServices(in: service.handles)) else { return [] }
        trees.with(self) { tree in
            tree.update(service.discovered) { cached in
                cached.includedServices = included
                cached.includedServicesDiscovered = true
            }
        }
        await saveTreeIfBonded()
        return included.map { RemoteService(uuid: $0.uuid, isPrimary: false, handles: $0.handles) }
    }

    /// The characteristics of `service` with their descriptors (§4.6.1, §4.7.1), kept like
    /// ``services(_:)``.
    public func characteristics(of service: RemoteService) async throws(BLEError) -> [RemoteCharacteristic] {
        try await exchangeMTUOnce()
        try await checkStoredTree()
        if let known = trees.with(self, { $0.service(at: service.handles.lowerBound) }),
           known.service.handles == service.handles, known.characteristicsDiscovered {
            await saveTreeIfBonded()
            return known.characteristics.map(RemoteCharacteristic.init)
        }
        let found = try await discoverCharacteristics(of: service.discovered)
        await saveTreeIfBonded()
        return found.map(RemoteCharacteristic.init)
    }

    /// Reads a characteristic's whole value (Read, then Read Blob while the value goes
    /// on; §4.8.1, §4.8.3).
    public func read(_ characteristic: RemoteCharacteristic) async throws(BLEError) -> [UInt8] {
        try await readValue(at: characteristic.valueHandle)
    }

    /// Reads a descriptor's whole value (§4.12.1–§4.12.2).
    public func read(_ descriptor: RemoteDescriptor) async throws(BLEError) -> [UInt8] {
        try await readValue(at: descriptor.handle)
    }

    /// Writes a characteristic's value (§4.9). With response, a value longer than one PDU
    /// goes as a long write (Prepare/Execute); without response it must fit
    /// ``maximumWriteLength(for:)`` and waits while the controller's buffers are full.
    /// A signed write (§4.9.2) needs a bond holding the CSRK we distributed to the peer;
    /// on an encrypted link it goes as a plain Write Command, as §4.9.2 requires.
    /// - Throws: ``BLEError/valueTooLong(octets:maximum:)``, ``BLEError/att(_:handle:)``,
    ///   ``BLEError/disconnected(_:)``; ``BLEError/invalidParameters(_:)`` for a signed
    ///   write without such a bond.
    public func write(_ value: [UInt8], to characteristic: RemoteCharacteristic, type: GATTWriteType = .withResponse) async throws(BLEError) {
        try await exchangeMTUOnce()
        let mtu = await core.host.attMTU(on: handle) ?? 23
        switch type {
        case .withResponse:
            guard value.count <= 512 else { throw .valueTooLong(octets: value.count, maximum: 512) }
            let procedure: GATTProcedure = value.count <= mtu - 3 ? .write(characteristic.valueHandle, value)
                                                                 : .writeLong(characteristic.valueHandle, value)
            _ = try await gatt(procedure)
        case .withoutResponse:
            try await writeCommand(value, to: characteristic, mtu: mtu)
        case .signedWithoutResponse:
            if await core.host.linkSecurity(handle).isEncrypted {
                try await writeCommand(value, to: characteristic, mtu: mtu)
                return
            }
            guard value.count <= mtu - 15 else { throw .valueTooLong(octets: value.count, maximum: mtu - 15) }
            guard let signing = await core.security.bonds.takeSignCounter(for: peer) else {
                throw .invalidParameters("no bond with \(peer) holds a signing key (CSRK) of ours")
            }
            do {
                try await core.host.signedWrite(value, to: characteristic.valueHandle, csrk: signing.csrk,
                                                signCounter: signing.counter, on: handle)
            } catch {
                throw gattFailure(error)
            }
        }
    }

    /// A Write Command (§4.9.1) of at most ATT_MTU − 3 octets.
    private func writeCommand(_ value: [UInt8], to characteristic: RemoteCharacteristic, mtu: Int) async throws(BLEError) {
        guard value.count <= mtu - 3 else { throw .valueTooLong(octets: value.count, maximum: mtu - 3) }
        do {
            try await core.host.writeWithoutResponse(value, to: characteristic.valueHandle, on: handle)
        } catch {
            throw gattFailure(error)
        }
    }

    /// The longest value one write of `type` carries: 512 with response (long writes),
    /// ATT_MTU − 3 without (§3.2.9, §3.4.5.3), like Core Bluetooth's
    /// `maximumWriteValueLength(for:)`; ATT_MTU − 15 signed (§3.4.5.4: the signature takes 12).
    public func maximumWriteLength(for type: GATTWriteType) async -> Int {
        switch type {
        case .withResponse: return 512
        case .withoutResponse: return (await core.host.attMTU(on: handle) ?? 23) - 3
        case .signedWithoutResponse: return (await core.host.attMTU(on: handle) ?? 23) - 15
        }
    }

    /// Whether a write without response would reach the controller at once rather than
    /// wait for its buffers, like Core Bluetooth's `canSendWriteWithoutResponse`.
    public var canSendWriteWithoutResponse: Bool {
        get async { await core.host.canSendWithoutWaiting(on: handle) }
    }

    /// Subscribes to `characteristic`'s notifications (or indications when it only
    /// indicates) and returns its values as they come (§4.10, §4.11, §4.12.3).
    /// - Throws: ``BLEError/invalidParameters(_:)`` when it neither notifies nor indicates
    ///   or has no Client Characteristic Configuration; what the configuration write throws.
    public func notifications(for characteristic: RemoteCharacteristic) async throws(BLEError) -> GATTNotifications {
        guard let configuration = characteristic.clientConfiguration,
              !characteristic.properties.isDisjoint(with: [.notify, .indicate]) else {
            throw .invalidParameters("\(characteristic) neither notifies nor indicates through a configuration descriptor")
        }
        let key = GATTDispatcher.SubscriberKey(connection: handle, valueHandle: characteristic.valueHandle)
        let (stream, dropped) = core.gatt.subscribe(key)
        let bits: GATTClientCharacteristicConfiguration = characteristic.properties.contains(.notify) ? .notification : .indication
        do {
            _ = try await gatt(.configure(bits, descriptor: configuration.handle))
        } catch {
            core.gatt.unsubscribe(key)
            throw error
        }
        let host = core.host, gatt = core.gatt, link = handle
        let token = GATTSubscriptionToken {
            gatt.unsubscribe(key)
            Task { _ = try? await host.gatt(.configure([], descriptor: configuration.handle), on: link) }
        }
        return GATTNotifications(stream: stream, subscription: token, dropped: dropped)
    }

    // MARK: Helpers

    private func readValue(at attribute: UInt16) async throws(BLEError) -> [UInt8] {
        try await exchangeMTUOnce()
        guard case let .value(value) = try await gatt(.readLong(attribute)) else { return [] }
        return value
    }

    /// Runs one client procedure, translating its errors.
    func gatt(_ procedure: GATTProcedure) async throws(BLEError) -> GATTClientResult {
        if let reason = disconnectReason { throw .disconnected(reason) }
        do {
            return try await core.host.gatt(procedure, on: handle)
        } catch {
            throw gattFailure(error)
        }
    }

    private func exchangeMTUOnce() async throws(BLEError) {
        guard claimMTUExchange() else { return }
        do {
            _ = try await core.host.gatt(.exchangeMTU, on: handle)
        } catch GATTClientError.invalidRequest {
            // The peer's client exchanged first (the bearer allows one exchange per side).
        } catch {
            let failure = gattFailure(error)
            if case .att(.requestNotSupported, _) = failure { return }  // a server that keeps 23
            throw failure
        }
    }

    private func gattFailure(_ error: any Error) -> BLEError {
        let translated = BLEError(gatt: error, closed: core.isClosed)
        if case .procedureFailed = translated, let reason = disconnectReason { return .disconnected(reason) }
        return translated
    }
}
