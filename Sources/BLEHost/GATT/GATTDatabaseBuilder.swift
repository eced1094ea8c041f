import BLEWire

extension GATTDatabase {
    /// Builds the database: the GAP and GATT services first (unless the configuration
    /// leaves them out), then `services` in order, each as its declaration, its include
    /// declarations, and per characteristic its declaration, value, Client Characteristic
    /// Configuration (when it notifies or indicates), Extended Properties (when it has
    /// any or sets the property bit), Server Characteristic Configuration (when it
    /// broadcasts) and its declared descriptors (Core 5.4, Vol 3, Part G, §3).
    ///
    /// - Throws: ``GATTDatabaseError`` when a definition breaks a rule of the spec.
    public init(services: [GATTServiceDefinition], configuration: Configuration = Configuration()) throws(GATTDatabaseError) {
        var all: [(definition: GATTServiceDefinition, isStandard: Bool)] = []
        if configuration.includesStandardServices {
            for service in services where service.uuid == GATTServerUUID.genericAccessService || service.uuid == GATTServerUUID.genericAttributeService {
                throw .duplicateStandardService(service.uuid)
            }
            all = GATTDatabase.standardServices(configuration).map { ($0, true) }
        }
        all += services.map { ($0, false) }
        try GATTDatabase.validate(all.map(\.definition))

        // First pass: where each service starts, so includes can name later services.
        var starts: [ATT.Handle] = []
        var next = 1
        for (service, _) in all {
            starts.append(ATT.Handle(truncatingIfNeeded: next))
            next += GATTDatabase.attributeCount(of: service)
        }
        guard next - 1 <= Int(ATT.Handle.max) else { throw .handleSpaceExhausted(attributeCount: next - 1) }

        var builder = Builder()
        for (index, (service, isStandard)) in all.enumerated() {
            let end = ATT.Handle(truncatingIfNeeded: Int(starts[index]) + GATTDatabase.attributeCount(of: service) - 1)
            builder.add(service, isStandard: isStandard, endHandle: end) { uuid in
                guard let target = all.firstIndex(where: { $0.definition.uuid == uuid }) else { return nil }
                let targetEnd = Int(starts[target]) + GATTDatabase.attributeCount(of: all[target].definition) - 1
                return starts[target] ... ATT.Handle(truncatingIfNeeded: targetEnd)
            }
        }
        guard let hash = GATTDatabase.hash(of: builder.attributes) else { throw .hashUnavailable }
        if let hashHandle = builder.standardHandles[GATTServerUUID.databaseHash] {
            var octets: [UInt8] = []
            for shift in stride(from: 0, to: 128, by: 8) { octets.append(UInt8(truncatingIfNeeded: hash >> shift)) }
            builder.attributes[Int(hashHandle) - 1].value = .stored(octets)
        }
        self.init(attributes: builder.attributes, services: builder.services, characteristics: builder.characteristics,
                  databaseHash: hash, standardHandles: builder.standardHandles)
    }

    /// The GAP service (Core 5.4, Vol 3, Part C, §12) and the GATT service (Part G, §7).
    static func standardServices(_ configuration: Configuration) -> [GATTServiceDefinition] {
        let name = Array(configuration.deviceName.utf8.prefix(248))
        let gap = GATTServiceDefinition(uuid: GATTServerUUID.genericAccessService, characteristics: [
            GATTCharacteristicDefinition(uuid: GATTServerUUID.deviceName,
                                         properties: configuration.deviceNameIsWriteable ? [.read, .write] : .read,
                                         permissions: configuration.deviceNameIsWriteable ? .readWrite : .readable,
                                         value: .stored(name), maximumLength: 248),
            GATTCharacteristicDefinition(uuid: GATTServerUUID.appearance, properties: .read,
                                         value: .stored([UInt8(truncatingIfNeeded: configuration.appearance),
                                                         UInt8(truncatingIfNeeded: configuration.appearance >> 8)]),
                                         maximumLength: 2),
        ])
        let gatt = GATTServiceDefinition(uuid: GATTServerUUID.genericAttributeService, characteristics: [
            GATTCharacteristicDefinition(uuid: GATTServerUUID.serviceChanged, properties: .indicate, permissions: [],
                                         value: .stored([0, 0, 0, 0]), maximumLength: 4),
            GATTCharacteristicDefinition(uuid: GATTServerUUID.clientSupportedFeatures, properties: [.read, .write],
                                         permissions: .readWrite, value: .stored([0]), maximumLength: 16),
            GATTCharacteristicDefinition(uuid: GATTServerUUID.databaseHash, properties: .read,
                                         value: .stored([UInt8](repeating: 0, count: 16)), maximumLength: 16),
        ])
        return [gap, gatt]
    }

    /// The checks that do not depend on handles.
    static func validate(_ services: [GATTServiceDefinition]) throws(GATTDatabaseError) {
        let reserved = [GATTServerUUID.extendedProperties, GATTServerUUID.clientCharacteristicConfiguration,
                        GATTServerUUID.serverCharacteristicConfiguration]
        for service in services {
            for include in service.includes {
                if include == service.uuid { throw .serviceIncludesItself(include) }
                if !services.contains(where: { $0.uuid == include }) { throw .unknownIncludedService(include, includedBy: service.uuid) }
            }
            for characteristic in service.characteristics {
                guard (0 ... 512).contains(characteristic.maximumLength) else {
                    throw .invalidMaximumLength(characteristic.uuid, characteristic.maximumLength)
                }
                guard (7 ... 16).contains(characteristic.minimumKeySize) else {
                    throw .invalidMinimumKeySize(characteristic.uuid, characteristic.minimumKeySize)
                }
                if case let .stored(value) = characteristic.value, value.count > characteristic.maximumLength {
                    throw .valueTooLong(characteristic.uuid, length: value.count, maximum: characteristic.maximumLength)
                }
                for descriptor in characteristic.descriptors {
                    if reserved.contains(descriptor.uuid) { throw .reservedDescriptor(descriptor.uuid, characteristic: characteristic.uuid) }
                    if case let .stored(value) = descriptor.value, value.count > 512 {
                        throw .valueTooLong(descriptor.uuid, length: value.count, maximum: 512)
                    }
                }
            }
        }
    }

    /// How many attributes a service takes.
    static func attributeCount(of service: GATTServiceDefinition) -> Int {
        1 + service.includes.count + service.characteristics.reduce(0) { $0 + attributeCount(of: $1) }
    }

    /// How many attributes a characteristic takes: declaration, value, added and declared descriptors.
    static func attributeCount(of characteristic: GATTCharacteristicDefinition) -> Int {
        let flags = AddedDescriptors(characteristic)
        return 2 + (flags.clientConfiguration ? 1 : 0) + (flags.extendedProperties ? 1 : 0)
            + (flags.serverConfiguration ? 1 : 0) + characteristic.descriptors.count
    }
}

/// The descriptors the database adds to a characteristic (Core 5.4, Vol 3, Part G, §3.3.3).
struct AddedDescriptors {
    /// Client Characteristic Configuration: the characteristic notifies or indicates.
    let clientConfiguration: Bool
    /// Extended Properties: it has some, or sets the property bit (which requires the descriptor).
    let extendedProperties: Bool
    /// Server Characteristic Configuration: it broadcasts.
    let serverConfiguration: Bool

    init(_ characteristic: GATTCharacteristicDefinition) {
        clientConfiguration = !characteristic.properties.isDisjoint(with: [.notify, .indicate])
        extendedProperties = !characteristic.extendedProperties.isEmpty || characteristic.properties.contains(.extendedProperties)
        serverConfiguration = characteristic.properties.contains(.broadcast)
    }
}
