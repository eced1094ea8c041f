import BLE
import Foundation

extension CBPeripheral {
    // MARK: Discovery

    /// Discovers the peripheral's primary services, all or those in `serviceUUIDs`
    /// (`discoverServices:`; Core 5.4, Vol 3, Part G, §4.4); then
    /// `peripheral(_:didDiscoverServices:)`. Services found before keep their objects.
    public func discoverServices(_ serviceUUIDs: [CBUUID]?) {
        let wanted = serviceUUIDs?.map(\.value)
        enqueue { peripheral, connection in
            let result = await CBPeripheral.outcome { () async throws(BLEError) in try await connection.services(wanted) }
            await peripheral.onQueue {
                switch result {
                case let .success(found):
                    var merged = peripheral.services ?? []
                    for remote in found where !merged.contains(where: { $0.remote?.handles == remote.handles }) {
                        merged.append(CBService(remote: remote, peripheral: peripheral))
                    }
                    peripheral.services = merged
                    peripheral.tell("didDiscoverServices") {
                        peripheral.delegate?.peripheral(peripheral, didDiscoverServices: nil)
                    }
                case let .failure(error):
                    peripheral.tell("didDiscoverServices") {
                        peripheral.delegate?.peripheral(peripheral, didDiscoverServices: CBErrorMapping.error(error))
                    }
                }
            }
            if case .success = result { await peripheral.watchServiceChanges(on: connection) }
        }
    }

    /// Discovers the services `service` includes, all or those in `includedServiceUUIDs`
    /// (`discoverIncludedServices:forService:`; §4.5.1); then
    /// `peripheral(_:didDiscoverIncludedServicesFor:error:)`.
    public func discoverIncludedServices(_ includedServiceUUIDs: [CBUUID]?, for service: CBService) {
        guard let remote = service.remote else { return }
        let wanted = includedServiceUUIDs?.map(\.value)
        enqueue { peripheral, connection in
            let result = await CBPeripheral.outcome { () async throws(BLEError) in try await connection.includedServices(of: remote) }
            await peripheral.onQueue {
                switch result {
                case let .success(found):
                    service.includedServices = found.filter { wanted?.contains($0.uuid) ?? true }
                        .map { CBService(remote: $0, peripheral: peripheral) }
                    peripheral.tell("didDiscoverIncludedServicesFor") {
                        peripheral.delegate?.peripheral(peripheral, didDiscoverIncludedServicesFor: service, error: nil)
                    }
                case let .failure(error):
                    peripheral.tell("didDiscoverIncludedServicesFor") {
                        peripheral.delegate?.peripheral(peripheral, didDiscoverIncludedServicesFor: service, error: CBErrorMapping.error(error))
                    }
                }
            }
        }
    }

    /// Discovers the characteristics of `service`, all or those in `characteristicUUIDs`
    /// (`discoverCharacteristics:forService:`; §4.6.1); then
    /// `peripheral(_:didDiscoverCharacteristicsFor:error:)`.
    public func discoverCharacteristics(_ characteristicUUIDs: [CBUUID]?, for service: CBService) {
        guard let remote = service.remote else { return }
        let wanted = characteristicUUIDs?.map(\.value)
        enqueue { peripheral, connection in
            let result = await CBPeripheral.outcome { () async throws(BLEError) in try await connection.characteristics(of: remote) }
            await peripheral.onQueue {
                switch result {
                case let .success(found):
                    var merged = service.characteristics ?? []
                    for characteristic in found where wanted?.contains(characteristic.uuid) ?? true {
                        guard !merged.contains(where: { $0.remote?.valueHandle == characteristic.valueHandle }) else { continue }
                        merged.append(CBCharacteristic(remote: characteristic, service: service))
                    }
                    service.characteristics = merged
                    peripheral.tell("didDiscoverCharacteristicsFor") {
                        peripheral.delegate?.peripheral(peripheral, didDiscoverCharacteristicsFor: service, error: nil)
                    }
                case let .failure(error):
                    peripheral.tell("didDiscoverCharacteristicsFor") {
                        peripheral.delegate?.peripheral(peripheral, didDiscoverCharacteristicsFor: service, error: CBErrorMapping.error(error))
                    }
                }
            }
        }
    }

    /// Discovers the descriptors of `characteristic` (`discoverDescriptorsForCharacteristic:`;
    /// §4.7.1); then `peripheral(_:didDiscoverDescriptorsFor:error:)`. The front door found
    /// them with the characteristic, so this answers from what it found, in order.
    public func discoverDescriptors(for characteristic: CBCharacteristic) {
        guard let remote = characteristic.remote else { return }
        enqueue { peripheral, _ in
            await peripheral.onQueue {
                characteristic.descriptors = remote.descriptors.map { descriptor in
                    characteristic.descriptors?.first { $0.remote?.handle == descriptor.handle }
                        ?? CBDescriptor(remote: descriptor, characteristic: characteristic)
                }
                peripheral.tell("didDiscoverDescriptorsFor") {
                    peripheral.delegate?.peripheral(peripheral, didDiscoverDescriptorsFor: characteristic, error: nil)
                }
            }
        }
    }

    // MARK: Reading

    /// Reads `characteristic`'s value, long values whole (`readValueForCharacteristic:`;
    /// §4.8.1, §4.8.3); then `peripheral(_:didUpdateValueFor:error:)` with the value in
    /// ``CBCharacteristic/value``, or a ``CBATTError`` such as ``CBATTError/Code/readNotPermitted``.
    public func readValue(for characteristic: CBCharacteristic) {
        guard let remote = characteristic.remote else { return }
        enqueue { peripheral, connection in
            let result = await CBPeripheral.outcome { () async throws(BLEError) in try await connection.read(remote) }
            await peripheral.onQueue {
                switch result {
                case let .success(bytes):
                    peripheral.tell("didUpdateValueFor \(characteristic.uuid.uuidString)") {
                        characteristic.value = Data(bytes)
                        peripheral.delegate?.peripheral(peripheral, didUpdateValueFor: characteristic, error: nil)
                    }
                case let .failure(error):
                    peripheral.tell("didUpdateValueFor \(characteristic.uuid.uuidString) error") {
                        peripheral.delegate?.peripheral(peripheral, didUpdateValueFor: characteristic, error: CBErrorMapping.error(error))
                    }
                }
            }
        }
    }

    /// Reads `descriptor`'s value (`readValueForDescriptor:`; §4.12.1); then
    /// `peripheral(_:didUpdateValueFor:error:)` with the value typed as Core Bluetooth
    /// types it (``CBDescriptor/value``).
    public func readValue(for descriptor: CBDescriptor) {
        guard let remote = descriptor.remote else { return }
        enqueue { peripheral, connection in
            let result = await CBPeripheral.outcome { () async throws(BLEError) in try await connection.read(remote) }
            await peripheral.onQueue {
                switch result {
                case let .success(bytes):
                    descriptor.value = DescriptorValue.typed(bytes, uuid: remote.uuid)
                    peripheral.tell("didUpdateValueFor descriptor") {
                        peripheral.delegate?.peripheral(peripheral, didUpdateValueFor: descriptor, error: nil)
                    }
                case let .failure(error):
                    peripheral.tell("didUpdateValueFor descriptor") {
                        peripheral.delegate?.peripheral(peripheral, didUpdateValueFor: descriptor, error: CBErrorMapping.error(error))
                    }
                }
            }
        }
    }

    // MARK: Writing

    /// Writes `data` to `characteristic` (`writeValue:forCharacteristic:type:`; §4.9).
    /// With response: a Write Request, or a long write when it does not fit one, then
    /// `peripheral(_:didWriteValueFor:error:)`. Without response: a Write Command of at most
    /// ``maximumWriteValueLength(for:)`` octets, no delegate call (on an iOS 7-era phone,
    /// ``HostProfile/iPhoneIOS7``, a longer value is cut to that length); see
    /// ``canSendWriteWithoutResponse``.
    public func writeValue(_ data: Data, for characteristic: CBCharacteristic, type: CBCharacteristicWriteType) {
        guard let remote = characteristic.remote, state == .connected else { return }
        let bytes = [UInt8](data)
        switch type {
        case .withResponse:
            enqueue { peripheral, connection in
                let result = await CBPeripheral.outcome { () async throws(BLEError) in try await connection.write(bytes, to: remote, type: .withResponse) }
                await peripheral.onQueue {
                    peripheral.tell("didWriteValueFor") {
                        peripheral.delegate?.peripheral(peripheral, didWriteValueFor: characteristic, error: result.failure.map(CBErrorMapping.error))
                    }
                }
            }
        case .withoutResponse:
            pendingWrites += 1
            if pendingWrites >= CBPeripheral.pendingWritesLimit { canSendWriteWithoutResponse = false }
            let cuts = manager?.hostProfile.cutsLongWritesWithoutResponse ?? false
            enqueue { peripheral, connection in
                // An iOS 7-era phone sends what one Write Command carries and drops the rest.
                let sent = cuts ? Array(bytes.prefix(await connection.maximumWriteLength(for: .withoutResponse))) : bytes
                // No answer to report: a failed Write Command is lost, as over the air.
                try? await connection.write(sent, to: remote, type: .withoutResponse)
                await peripheral.onQueue {
                    peripheral.pendingWrites -= 1
                    if !peripheral.canSendWriteWithoutResponse, peripheral.pendingWrites < CBPeripheral.pendingWritesLimit {
                        peripheral.canSendWriteWithoutResponse = true
                        peripheral.tell("isReadyToSendWriteWithoutResponse") {
                            peripheral.delegate?.peripheralIsReady(toSendWriteWithoutResponse: peripheral)
                        }
                    }
                }
            }
        }
    }

    /// Writes `data` to `descriptor` (`writeValue:forDescriptor:`; §4.12.3); then
    /// `peripheral(_:didWriteValueFor:error:)`. As on Apple platforms the Client
    /// Characteristic Configuration cannot be written this way: use ``setNotifyValue(_:for:)``.
    public func writeValue(_ data: Data, for descriptor: CBDescriptor) {
        guard let remote = descriptor.remote, remote.uuid != BluetoothUUID(0x2902) else { return }
        let bytes = [UInt8](data)
        enqueue { peripheral, connection in
            let result = await CBPeripheral.outcome { () async throws(BLEError) in try await connection.write(bytes, to: remote) }
            await peripheral.onQueue {
                peripheral.tell("didWriteValueFor") {
                    peripheral.delegate?.peripheral(peripheral, didWriteValueFor: descriptor, error: result.failure.map(CBErrorMapping.error))
                }
            }
        }
    }

    // MARK: Notifications

    /// Turns notifications (or indications, when the characteristic only indicates) of
    /// `characteristic` on or off (`setNotifyValue:forCharacteristic:`; §4.10, §4.11):
    /// `peripheral(_:didUpdateNotificationStateFor:error:)`, then one
    /// `peripheral(_:didUpdateValueFor:error:)` per value received.
    public func setNotifyValue(_ enabled: Bool, for characteristic: CBCharacteristic) {
        guard let remote = characteristic.remote else { return }
        enqueue { peripheral, connection in
            /// Whether to subscribe: not when turning off, already subscribed, or unable.
            let subscribe = await peripheral.onQueue { () -> Bool in
                if !enabled {
                    if let subscription = peripheral.subscriptions.removeValue(forKey: remote.valueHandle) {
                        subscription.values.cancel()
                        subscription.reader.cancel()
                    }
                    characteristic.isNotifying = false
                    peripheral.tell("didUpdateNotificationStateFor") {
                        peripheral.delegate?.peripheral(peripheral, didUpdateNotificationStateFor: characteristic, error: nil)
                    }
                    return false
                }
                guard peripheral.subscriptions[remote.valueHandle] == nil else {
                    peripheral.tell("didUpdateNotificationStateFor") {
                        peripheral.delegate?.peripheral(peripheral, didUpdateNotificationStateFor: characteristic, error: nil)
                    }
                    return false
                }
                guard !remote.properties.isDisjoint(with: [.notify, .indicate]) else {
                    peripheral.tell("didUpdateNotificationStateFor") {
                        peripheral.delegate?.peripheral(peripheral, didUpdateNotificationStateFor: characteristic,
                                                        error: CBATTError(.requestNotSupported, reason: "the characteristic neither notifies nor indicates"))
                    }
                    return false
                }
                return true
            }
            guard subscribe else { return }
            let result = await CBPeripheral.outcome { () async throws(BLEError) in try await connection.notifications(for: remote) }
            await peripheral.onQueue {
                switch result {
                case let .success(values):
                    let reader = Task { [weak peripheral, weak characteristic] in
                        for await value in values {
                            guard let peripheral, let characteristic else { break }
                            let delivered = await peripheral.onQueue { () -> Bool in
                                guard characteristic.isNotifying else { return false }
                                let data = Data(value)
                                peripheral.alertIfAsked(.notification)
                                peripheral.tell("didUpdateValueFor \(characteristic.uuid.uuidString)") {
                                    characteristic.value = data
                                    peripheral.delegate?.peripheral(peripheral, didUpdateValueFor: characteristic, error: nil)
                                }
                                return true
                            }
                            guard delivered else { break }
                        }
                    }
                    peripheral.subscriptions[remote.valueHandle] = (values, reader)
                    characteristic.isNotifying = true
                    peripheral.tell("didUpdateNotificationStateFor") {
                        peripheral.delegate?.peripheral(peripheral, didUpdateNotificationStateFor: characteristic, error: nil)
                    }
                case let .failure(error):
                    peripheral.tell("didUpdateNotificationStateFor") {
                        peripheral.delegate?.peripheral(peripheral, didUpdateNotificationStateFor: characteristic, error: CBErrorMapping.error(error))
                    }
                }
            }
        }
    }

    /// What a throwing call of the front door gave, as a value to take onto the queue.
    static func outcome<T: Sendable>(_ call: () async throws(BLEError) -> T) async -> Result<T, BLEError> {
        do throws(BLEError) {
            return .success(try await call())
        } catch {
            return .failure(error)
        }
    }
}

extension Result {
    /// The error, when this is a failure.
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}

/// Descriptor values as Core Bluetooth types them.
enum DescriptorValue {
    /// `NSNumber` for the Extended Properties, Client and Server Configuration descriptors
    /// (16-bit little-endian, Core 5.4, Vol 3, Part G, §3.3.3.1, §3.3.3.3, §3.3.3.4),
    /// `String` for the User Description (§3.3.3.2), `Data` for the others.
    static func typed(_ bytes: [UInt8], uuid: BluetoothUUID) -> Any {
        switch uuid.uuid16 {
        case 0x2900, 0x2902, 0x2903:
            let number = UInt16(bytes.first ?? 0) | UInt16(bytes.count > 1 ? bytes[1] : 0) << 8
            return NSNumber(value: number)
        case 0x2901:
            return String(decoding: bytes, as: UTF8.self)
        default:
            return Data(bytes)
        }
    }
}
