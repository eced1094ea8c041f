import BLE
import BLEProfiles
import Foundation

extension CBPeripheralManager {
    /// The services the system serves and apps may not publish: Apple's Notification
    /// Center Service and Media Service.
    static let systemServices: Set<BluetoothUUID> = [ANCS.service, AMS.service]

    /// Publishes `service` and its characteristics on the GATT server (Core 5.4, Vol 3,
    /// Part G, §3) while the manager runs; connected centrals that asked for Service
    /// Changed are told (§7.1). The delegate gets
    /// ``CBPeripheralManagerDelegate/peripheralManager(_:didAdd:error:)-5acjb``.
    ///
    /// A characteristic created with a value is read-only and served by the stack (Core
    /// Bluetooth's rule: its properties must be `.read` alone); one created without a value
    /// is answered by the app through `didReceiveRead` / `didReceiveWrite`.
    public func add(_ service: CBMutableService) {
        let definition: Result<Service, CBError> = Self.definition(of: service)
        enqueue { [weak self] in
            guard let self else { return }
            let device = await self.onQueue { () -> BLEDevice? in
                guard let device = self.device, self.state == .poweredOn else {
                    self.delegate?.peripheralManager(self, didAdd: service, error: CBError(.unknown, reason: "the peripheral manager is not powered on"))
                    return nil
                }
                guard !self.published.contains(where: { $0.service === service }) else {
                    self.delegate?.peripheralManager(self, didAdd: service, error: CBError(.invalidParameters, reason: "the service is already added"))
                    return nil
                }
                return device
            }
            guard let device else { return }
            let result: Result<PublishedServices, CBError>
            do {
                result = .success(try await device.peripheral.add(try definition.get()))
            } catch let error as CBError {
                result = .failure(error)
            } catch {
                result = .failure(CBError(.invalidParameters, reason: "\(error)"))
            }
            await self.onQueue {
                switch result {
                case let .success(layout):
                    if let id = layout.services.last?.id { self.published.append((service, id)) }
                    self.adopt(layout)
                    self.delegate?.peripheralManager(self, didAdd: service, error: nil)
                case let .failure(error):
                    self.delegate?.peripheralManager(self, didAdd: service, error: error)
                }
            }
        }
    }

    /// Removes `service` from the GATT server; services after it move down and connected
    /// centrals that asked for Service Changed are told (§7.1).
    public func remove(_ service: CBMutableService) {
        enqueue { [weak self] in
            guard let self else { return }
            let found = await self.onQueue { () -> (device: BLEDevice, id: LocalService.ID)? in
                guard let device = self.device, let id = self.published.first(where: { $0.service === service })?.id else { return nil }
                self.published.removeAll { $0.service === service }
                return (device, id)
            }
            guard let found, let layout = try? await found.device.peripheral.remove(found.id) else { return }
            await self.onQueue { self.adopt(layout) }
        }
    }

    /// Removes every service added.
    public func removeAllServices() {
        enqueue { [weak self] in
            guard let self else { return }
            let device = await self.onQueue { () -> BLEDevice? in
                self.published = []
                return self.device
            }
            guard let device, let layout = try? await device.peripheral.removeAllServices() else { return }
            await self.onQueue { self.adopt(layout) }
        }
    }

    /// Learns the handles of every service after a change.
    func adopt(_ layout: PublishedServices) {
        characteristicsByHandle = [:]
        localCharacteristics = [:]
        for entry in published {
            guard let laid = layout.services.first(where: { $0.id == entry.id }) else { continue }
            let characteristics = (entry.service.characteristics ?? []).compactMap { $0 as? CBMutableCharacteristic }
            for (characteristic, local) in zip(characteristics, laid.characteristics) {
                characteristic.service = entry.service
                characteristicsByHandle[local.valueHandle] = characteristic
                localCharacteristics[ObjectIdentifier(characteristic)] = local
            }
        }
    }

    /// The declaration's Characteristic Properties octet for Core Bluetooth's `properties`,
    /// and whether subscribing needs encryption. The bits below 0x100 are that octet (Vol 3,
    /// Part G, §3.3.1.1). `notifyEncryptionRequired` and `indicateEncryptionRequired` are
    /// Apple's own (in its documentation, only a trusted device may turn them on): the
    /// declaration shows notify or indicate, and the Client Characteristic Configuration
    /// needs an encrypted link to be written, so a central pairs before it subscribes. Its
    /// one descriptor serves both bits, so either makes every subscription need encryption.
    static func declaredProperties(of properties: CBCharacteristicProperties) -> (octet: UInt8, encryptedSubscription: Bool) {
        var declared = properties.intersection(CBCharacteristicProperties(rawValue: 0xFF))
        if properties.contains(.notifyEncryptionRequired) { declared.insert(.notify) }
        if properties.contains(.indicateEncryptionRequired) { declared.insert(.indicate) }
        let encrypted = !properties.isDisjoint(with: [.notifyEncryptionRequired, .indicateEncryptionRequired])
        return (UInt8(truncatingIfNeeded: declared.rawValue), encrypted)
    }

    /// The front door's service for `service`, or why it cannot be published.
    static func definition(of service: CBMutableService) -> Result<Service, CBError> {
        // iOS serves ANCS and AMS itself and refuses them to apps (CBErrorDomain code 8).
        guard !systemServices.contains(service.uuid.value) else {
            return .failure(CBError(.uuidNotAllowed, reason: "The specified UUID is not allowed for this operation."))
        }
        var characteristics: [Characteristic] = []
        for one in service.characteristics ?? [] {
            guard let characteristic = one as? CBMutableCharacteristic else {
                return .failure(CBError(.invalidParameters, reason: "a published service holds CBMutableCharacteristics only"))
            }
            let (propertyBits, encryptedSubscription) = Self.declaredProperties(of: characteristic.properties)
            // Core Bluetooth's four permission bits are the front door's; a condition alone
            // (`.readEncryptionRequired`) allows the access under it (GATTPermissions.allowsReading).
            let permissionBits = UInt16(truncatingIfNeeded: characteristic.permissions.rawValue & 0x0F)
            var descriptors: [Descriptor] = []
            for descriptor in characteristic.descriptors ?? [] {
                // The Client Characteristic Configuration is the stack's (Vol 3, Part G, §3.3.3.3).
                guard descriptor.uuid.value != BluetoothUUID(0x2902) else { continue }
                switch descriptor.value {
                case let text as String: descriptors.append(Descriptor(descriptor.uuid.value, value: Array(text.utf8)))
                case let data as Data: descriptors.append(Descriptor(descriptor.uuid.value, value: Array(data)))
                case let number as NSNumber: descriptors.append(Descriptor(descriptor.uuid.value, value: withUnsafeBytes(of: number.uint16Value.littleEndian, Array.init)))
                default: return .failure(CBError(.invalidParameters, reason: "a descriptor's value must be a String or Data"))
                }
            }
            if let value = characteristic.value {
                guard characteristic.properties.subtracting([.read]).isEmpty else {
                    return .failure(CBError(.invalidParameters, reason: "characteristics with cached values must be read-only"))
                }
                characteristics.append(Characteristic(characteristic.uuid.value, properties: .init(rawValue: propertyBits),
                                                      permissions: .some(.init(rawValue: permissionBits)),
                                                      value: Array(value), descriptors: descriptors))
            } else {
                characteristics.append(.answeredByRequests(characteristic.uuid.value, properties: .init(rawValue: propertyBits),
                                                           permissions: .some(.init(rawValue: permissionBits)),
                                                           subscriptionPermissions: encryptedSubscription ? .writeEncryptionRequired : [],
                                                           descriptors: descriptors))
            }
        }
        let includes = (service.includedServices ?? []).map(\.uuid.value)
        return .success(Service(service.uuid.value, primary: service.isPrimary, includes: includes) {
            for characteristic in characteristics { characteristic }
        })
    }
}
