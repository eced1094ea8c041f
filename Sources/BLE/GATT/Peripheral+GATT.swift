import BLEHost

extension Peripheral {
    /// Publishes our GATT server's services (Core 5.4, Vol 3, Part G, §3), replacing any
    /// published or added before; connected clients that asked for Service Changed are told.
    /// - Returns: the layout, to find characteristics for ``notify(_:to:on:)``.
    /// - Throws: ``BLEError/invalidParameters(_:)`` when the services cannot be laid out
    ///   (a value over 512 octets, an include of an unknown service…).
    @discardableResult
    public func publish(name: String = "SwiftBLE", @ServiceBuilder _ services: () -> [Service]) async throws(BLEError) -> PublishedGATT {
        let declared = services()
        let previous = (self.services, gattName)
        gattName = name
        self.services = declared.map { service in
            defer { nextServiceID += 1 }
            return (nextServiceID, service)
        }
        do {
            return try await republish().gatt
        } catch {
            (self.services, gattName) = previous
            throw error
        }
    }

    /// The clients subscribed to `characteristic`.
    public func subscribers(of characteristic: LocalCharacteristic) async -> [UInt16] {
        await core.host.subscriptions(of: characteristic.valueHandle).map(\.connection)
    }

    /// Sends `value` to the clients subscribed to `characteristic` (or only to
    /// `connection`): a notification to those that enabled notifications, an indication
    /// (waiting for its confirmation) to those that enabled indications (Vol 3, Part G,
    /// §4.10–§4.11). Suspends while the controller's buffers are full, so nothing is
    /// dropped; values longer than ATT_MTU − 3 are cut as the spec says.
    /// - Returns: how many clients it was sent to.
    /// - Throws: the first client's failure when it reached none of them.
    @discardableResult
    public func notify(_ value: [UInt8], to characteristic: LocalCharacteristic, on connection: UInt16? = nil) async throws(BLEError) -> Int {
        try await Self.send(value, to: characteristic, on: connection.map { [$0] }, core: core)
    }

    /// Queues `value` for the clients subscribed to `characteristic` (or only those on
    /// `connections`) without suspending, like Core Bluetooth's
    /// `updateValue(_:for:onSubscribedCentrals:)`: values go out in the order taken,
    /// each as ``notify(_:to:on:)`` sends it.
    /// - Returns: `false` when the transmit queue is full (the value is not taken);
    ///   ``readyToUpdate`` then yields once there is room.
    public nonisolated func updateValue(_ value: [UInt8], for characteristic: LocalCharacteristic, on connections: [UInt16]? = nil) -> Bool {
        updates.offer(ValueUpdateQueue.Item(value: value, characteristic: characteristic, connections: connections))
    }

    /// Yields once after ``updateValue(_:for:on:)`` returned `false`, when the transmit
    /// queue has room again (Core Bluetooth's `peripheralManagerIsReady(toUpdateSubscribers:)`).
    /// One reader.
    public nonisolated var readyToUpdate: AsyncStream<Void> { updates.ready }

    /// The values ``updateValue(_:for:on:)`` took that have not gone to the host yet.
    public nonisolated var queuedUpdates: Int { updates.count }

    /// Notifies or indicates `value` to the subscribers of `characteristic` on `connections`
    /// (all when `nil`).
    static func send(_ value: [UInt8], to characteristic: LocalCharacteristic, on connections: [UInt16]?, core: DeviceCore) async throws(BLEError) -> Int {
        var sent = 0
        var failure: BLEError?
        for subscription in await core.host.subscriptions(of: characteristic.valueHandle)
        where connections?.contains(subscription.connection) ?? true {
            do {
                if subscription.notify {
                    try await core.host.notify(value, valueHandle: characteristic.valueHandle, on: subscription.connection)
                } else {
                    try await core.host.indicate(value, valueHandle: characteristic.valueHandle, on: subscription.connection)
                }
                sent += 1
            } catch {
                // One client gone does not keep the value from the others.
                failure = failure ?? BLEError(gatt: error, closed: core.isClosed)
            }
        }
        if let failure, sent == 0 { throw failure }
        return sent
    }
}
