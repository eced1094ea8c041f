import BLEHost

extension Peripheral {
    /// Adds `service` to our GATT server while it runs, like `CBPeripheralManager.add`:
    /// the database is laid out again (Core 5.4, Vol 3, Part G, §3) and connected clients
    /// that enabled Service Changed are told to rediscover (§7.1). Handles of the services
    /// already there do not move: new services go last.
    /// - Returns: the layout of every service now published, this one last.
    /// - Throws: ``BLEError/invalidParameters(_:)`` when it cannot be laid out; nothing changes.
    @discardableResult
    public func add(_ service: Service) async throws(BLEError) -> PublishedServices {
        let previous = services
        services.append((nextServiceID, service))
        nextServiceID += 1
        do {
            return try await republish()
        } catch {
            services = previous
            throw error
        }
    }

    /// Removes the service `id` names (from ``PublishedServices/services``); services after
    /// it move down. Clients that enabled Service Changed are told (§7.1).
    /// - Returns: the layout of the services left.
    @discardableResult
    public func remove(_ id: LocalService.ID) async throws(BLEError) -> PublishedServices {
        let previous = services
        services.removeAll { $0.id == id }
        do {
            return try await republish()
        } catch {
            services = previous
            throw error
        }
    }

    /// Removes every service of ours (the GAP and GATT services stay), like
    /// `CBPeripheralManager.removeAllServices()`.
    @discardableResult
    public func removeAllServices() async throws(BLEError) -> PublishedServices {
        services = []
        return try await republish()
    }

    /// Lays the database out from ``services`` and routes the app-answered values.
    func republish() async throws(BLEError) -> PublishedServices {
        let declared = services
        let database: GATTDatabase
        do {
            database = try await core.host.publishGATT(declared.map(\.service.definition), configuration: .init(deviceName: gattName))
        } catch {
            throw .invalidParameters("the GATT services cannot be laid out: \(error)")
        }
        // The database lays the declared characteristics out last, in the declared order,
        // after the GAP and GATT services' own.
        let declaredCount = declared.reduce(0) { $0 + $1.service.characteristics.count }
        var laid = database.characteristics.suffix(declaredCount).makeIterator()
        var handlers: [UInt16: GATTRequestHandlers] = [:]
        var appAnswered: Set<UInt16> = []
        var layout: [LocalService] = []
        for (id, service) in declared {
            var characteristics: [LocalCharacteristic] = []
            for declaredOne in service.characteristics {
                guard let one = laid.next() else { break }
                if declaredOne.answersRequests { appAnswered.insert(one.valueHandle) }
                handlers[one.valueHandle] = declaredOne.handlers
                characteristics.append(LocalCharacteristic(
                    uuid: one.uuid, serviceUUID: one.serviceUUID, valueHandle: one.valueHandle, properties: one.properties))
            }
            layout.append(LocalService(id: id, uuid: service.uuid, characteristics: characteristics))
        }
        core.gatt.setHandlers(handlers, appAnswered: appAnswered)
        return PublishedServices(services: layout, gatt: PublishedGATT(database: database))
    }
}

/// One service of ours as laid out: what ``Peripheral/remove(_:)`` names.
public struct LocalService: Hashable, Sendable, Identifiable {
    /// Names the service for ``Peripheral/remove(_:)``; never reused by a device.
    public let id: UInt64
    /// Its type.
    public let uuid: BluetoothUUID
    /// Its characteristics in the declared order, with their handles now.
    public let characteristics: [LocalCharacteristic]
}

/// Our services after an ``Peripheral/add(_:)`` or ``Peripheral/remove(_:)``: handles
/// move when a service before them is removed, so look characteristics up again.
public struct PublishedServices: Sendable {
    /// Our services, in the order added.
    public let services: [LocalService]
    /// The whole database.
    public let gatt: PublishedGATT
}
