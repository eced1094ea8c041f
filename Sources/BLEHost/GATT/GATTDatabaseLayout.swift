import BLEWire

extension GATTDatabase {
    /// Appends attributes one service at a time, handles from 1 without gaps.
    struct Builder {
        var attributes: [GATTAttribute] = []
        var services: [Service] = []
        var characteristics: [Characteristic] = []
        var standardHandles: [BluetoothUUID: ATT.Handle] = [:]

        private var nextHandle: ATT.Handle { ATT.Handle(truncatingIfNeeded: attributes.count + 1) }

        /// Appends one service; `range` gives the handles of an included service.
        mutating func add(_ service: GATTServiceDefinition, isStandard: Bool, endHandle: ATT.Handle,
                          range: (BluetoothUUID) -> ClosedRange<ATT.Handle>?) {
            let start = nextHandle
            append(type: service.isPrimary ? GATTServerUUID.primaryService : GATTServerUUID.secondaryService,
                   role: .serviceDeclaration(isPrimary: service.isPrimary, endHandle: endHandle),
                   value: service.uuid.attributeOctets)
            for include in service.includes {
                // validate() checked every include names a service, so the range exists.
                guard let handles = range(include) else { continue }
                var writer = ByteWriter(capacity: 6)
                writer.write(handles.lowerBound)
                writer.write(handles.upperBound)
                // The UUID is present only when it has a 16-bit form (Part G, §3.2).
                if let short = include.uuid16 { writer.write(short) }
                append(type: GATTServerUUID.include, role: .includeDeclaration, value: writer.bytes)
            }
            for characteristic in service.characteristics {
                add(characteristic, of: service.uuid, isStandard: isStandard)
            }
            services.append(Service(uuid: service.uuid, isPrimary: service.isPrimary, handles: start ... endHandle))
        }

        private mutating func add(_ characteristic: GATTCharacteristicDefinition, of service: BluetoothUUID, isStandard: Bool) {
            let added = AddedDescriptors(characteristic)
            var properties = characteristic.properties
            if added.extendedProperties { properties.insert(.extendedProperties) }
            let declarationHandle = nextHandle
            let valueHandle = declarationHandle + 1
            let endHandle = ATT.Handle(truncatingIfNeeded: Int(declarationHandle) + GATTDatabase.attributeCount(of: characteristic) - 1)

            var declaration = ByteWriter(capacity: 19)
            declaration.write(properties.rawValue)
            declaration.write(valueHandle)
            declaration.write(contentsOf: characteristic.uuid.attributeOctets)
            append(type: GATTServerUUID.characteristic,
                   role: .characteristicDeclaration(valueHandle: valueHandle, endHandle: endHandle),
                   value: declaration.bytes)

            let isClientFeatures = isStandard && characteristic.uuid == GATTServerUUID.clientSupportedFeatures
            append(type: characteristic.uuid,
                   role: isClientFeatures ? .clientSupportedFeatures : .characteristicValue(properties: properties),
                   permissions: characteristic.permissions, value: characteristic.value,
                   minimumKeySize: characteristic.minimumKeySize, maximumLength: characteristic.maximumLength)
            if isStandard { standardHandles[characteristic.uuid] = valueHandle }

            var clientConfigurationHandle: ATT.Handle?
            if added.clientConfiguration {
                clientConfigurationHandle = nextHandle
                // Readable by anyone; writable with the security the value's reads need
                // (Vol 3, Part G, §3.3.3.3 leaves it to the higher layer): a notification
                // reveals the value as a read would, so subscribing needs what reading needs,
                // and what the definition asks of subscribers besides.
                var configuration: GATTPermissions = .readWrite
                if characteristic.permissions.contains(.readEncryptionRequired) { configuration.insert(.writeEncryptionRequired) }
                if characteristic.permissions.contains(.readAuthenticationRequired) { configuration.insert(.writeAuthenticationRequired) }
                configuration.formUnion(characteristic.subscriptionPermissions.intersection([.writeEncryptionRequired, .writeAuthenticationRequired]))
                append(type: GATTServerUUID.clientCharacteristicConfiguration,
                       role: .clientCharacteristicConfiguration(valueHandle: valueHandle, properties: properties),
                       permissions: configuration, value: [0, 0], maximumLength: 2)
            }
            if added.extendedProperties {
                let bits = characteristic.extendedProperties.rawValue
                append(type: GATTServerUUID.extendedProperties, role: .extendedProperties,
                       value: [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8)])
            }
            if added.serverConfiguration {
                append(type: GATTServerUUID.serverCharacteristicConfiguration,
                       role: .serverCharacteristicConfiguration(valueHandle: valueHandle),
                       permissions: .readWrite, value: [0, 0], maximumLength: 2)
            }
            for descriptor in characteristic.descriptors {
                append(type: descriptor.uuid, role: .descriptor, permissions: descriptor.permissions, value: descriptor.value,
                       minimumKeySize: characteristic.minimumKeySize, maximumLength: 512)
            }
            characteristics.append(Characteristic(uuid: characteristic.uuid, serviceUUID: service, properties: properties,
                                                  declarationHandle: declarationHandle, valueHandle: valueHandle,
                                                  endHandle: endHandle, clientConfigurationHandle: clientConfigurationHandle))
        }

        private mutating func append(type: BluetoothUUID, role: GATTAttribute.Role, permissions: GATTPermissions = .readable,
                                     value: [UInt8], maximumLength: Int? = nil) {
            append(type: type, role: role, permissions: permissions, value: .stored(value), minimumKeySize: 7,
                   maximumLength: maximumLength ?? value.count)
        }

        private mutating func append(type: BluetoothUUID, role: GATTAttribute.Role, permissions: GATTPermissions,
                                     value: GATTValue, minimumKeySize: Int, maximumLength: Int) {
            attributes.append(GATTAttribute(handle: nextHandle, type: type.attributeForm, role: role, permissions: permissions,
                                            minimumKeySize: minimumKeySize, maximumLength: maximumLength, value: value))
        }
    }
}
