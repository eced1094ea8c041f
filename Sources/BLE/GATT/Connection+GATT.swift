import BLEHost

extension Connection {
    /// The peer's services (Core 5.4, Vol 3, Part G, §4.4): all primary services, or those
    /// of the given types. The first GATT call on a connection exchanges ATT_MTU (§4.3.1)
    /// so later reads and notifications carry up to 514 octets, as Core Bluetooth does.
    /// - Throws: ``BLEError/att(_:handle:)``, ``BLEError/gattTimedOut``,
    ///   ``BLEError/disconnected(_:)``.
    public func services(_ uuids: [BluetoothUUID]? = nil) async throws(BLEError) -> [RemoteService] {
        try await exchangeMTUOnce()
        var found: [GATTDiscoveredService] = []
        if let uuids {
            for uuid in uuids {
                guard case let .services(services) = try await gatt(.discoverPrimaryServices(uuid)) else { continue }
                found += services
            }
        } else if case let .services(services) = try await gatt(.discoverAllPrimaryServices) {
            found = services
        }
        return found.map { RemoteService(uuid: $0.uuid, isPrimary: $0.isPrimary, handles: $0.handles) }
    }

    /// The services `service` includes (§4.5.1).
    public func includedServices(of service: RemoteService) async throws(BLEError) -> [RemoteService] {
        guard case let .includedServices(included) = try await gatt(.findIncludedServices(in: service.handles)) else { return [] }
        return included.map { RemoteService(uuid: $0.uuid, isPrimary: false, handles: $0.handles) }
    }

    /// The characteristics of `service` with their descriptors (§4.6.1, §4.7.1).
    public func characteristics(of service: RemoteService) async throws(BLEError) -> [RemoteCharacteristic] {
        guard case let .characteristics(found) = try await gatt(.discoverAllCharacteristics(in: service.handles)) else { return [] }
        var result: [RemoteCharacteristic] = []
        for characteristic in found {
            var descriptors: [RemoteDescriptor] = []
            if characteristic.endHandle > characteristic.valueHandle,
               case let .descriptors(list) = try await gatt(.discoverAllDescriptors(of: characteristic)) {
                descriptors = list.map { RemoteDescriptor(uuid: $0.uuid, handle: $0.handle) }
            }
            result.append(RemoteCharacteristic(uuid: characteristic.uuid, properties: characteristic.properties,
                                               valueHandle: characteristic.valueHandle,
                                               declarationHandle: characteristic.declarationHandle, descriptors: descriptors))
        }
        return result
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
    /// - Throws: ``BLEError/valueTooLong(octets:maximum:)``, ``BLEError/att(_:handle:)``,
    ///   ``BLEError/disconnected(_:)``.
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
            guard value.count <= mtu - 3 else { throw .valueTooLong(octets: value.count, maximum: mtu - 3) }
            do {
                try await core.host.writeWithoutResponse(value, to: characteristic.valueHandle, on: handle)
            } catch {
                throw gattFailure(error)
            }
        }
    }

    /// The longest value one write of `type` carries: 512 with response (long writes),
    /// ATT_MTU − 3 without (§3.2.9, §3.4.5.3), like Core Bluetooth's
    /// `maximumWriteValueLength(for:)`.
    public func maximumWriteLength(for type: GATTWriteType) async -> Int {
        switch type {
        case .withResponse: return 512
        case .withoutResponse: return (await core.host.attMTU(on: handle) ?? 23) - 3
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
        let stream = core.gatt.subscribe(key)
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
        return GATTNotifications(stream: stream, subscription: token)
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
