import BLEHost

extension Peripheral {
    /// Publishes our GATT server's services (Core 5.4, Vol 3, Part G, §3), replacing any
    /// published before; connected clients that asked for Service Changed are told.
    /// - Returns: the layout, to find characteristics for ``notify(_:to:on:)``.
    /// - Throws: ``BLEError/invalidParameters(_:)`` when the services cannot be laid out
    ///   (a value over 512 octets, an include of an unknown service…).
    @discardableResult
    public func publish(name: String = "SwiftBLE", @ServiceBuilder _ services: () -> [Service]) async throws(BLEError) -> PublishedGATT {
        let declared = services()
        let database: GATTDatabase
        do {
            database = try await core.host.publishGATT(declared.map(\.definition), configuration: .init(deviceName: name))
        } catch {
            throw .invalidParameters("the GATT services cannot be laid out: \(error)")
        }
        // The database lays the declared characteristics out last, in the declared order,
        // after the GAP and GATT services' own.
        var handlers: [UInt16: GATTRequestHandlers] = [:]
        let declaredCharacteristics = declared.flatMap(\.characteristics)
        for (laid, declaredOne) in zip(database.characteristics.suffix(declaredCharacteristics.count), declaredCharacteristics) {
            handlers[laid.valueHandle] = declaredOne.handlers
        }
        core.gatt.setHandlers(handlers)
        return PublishedGATT(database: database)
    }

    /// The connection handles of the clients subscribed to `characteristic`.
    public func subscribers(of characteristic: LocalCharacteristic) async -> [UInt16] {
        await core.host.subscriptions(of: characteristic.valueHandle).map(\.connection)
    }

    /// Sends `value` to the clients subscribed to `characteristic` (or only to
    /// `connection`): a notification to those that enabled notifications, an indication
    /// (waiting for its confirmation) to those that enabled indications (Vol 3, Part G,
    /// §4.10–§4.11). Suspends while the controller's buffers are full, so nothing is
    /// dropped; values longer than ATT_MTU − 3 are cut as the spec says.
    /// - Returns: how many clients it was sent to.
    @discardableResult
    public func notify(_ value: [UInt8], to characteristic: LocalCharacteristic, on connection: UInt16? = nil) async throws(BLEError) -> Int {
        var sent = 0
        for subscription in await core.host.subscriptions(of: characteristic.valueHandle)
        where connection == nil || subscription.connection == connection {
            do {
                if subscription.notify {
                    try await core.host.notify(value, valueHandle: characteristic.valueHandle, on: subscription.connection)
                } else {
                    try await core.host.indicate(value, valueHandle: characteristic.valueHandle, on: subscription.connection)
                }
                sent += 1
            } catch {
                throw BLEError(gatt: error, closed: core.isClosed)
            }
        }
        return sent
    }
}
