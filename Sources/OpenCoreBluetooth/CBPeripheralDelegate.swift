import Foundation

/// What a ``CBPeripheral`` tells its delegate (Core Bluetooth's `CBPeripheralDelegate`),
/// on its central manager's queue, in the order the requests were made. Errors are ``CBATTError``
/// (the peer's ATT Error Response, Core 5.4, Vol 3, Part F, §3.4.1.1) or ``CBError``.
///
/// Every method is optional on Apple platforms; here each has a default that does nothing
/// (see ``CBCentralManagerDelegate`` for why).
public protocol CBPeripheralDelegate: NSObjectProtocol {
    /// The peripheral's GAP Device Name changed (`peripheralDidUpdateName:`).
    func peripheralDidUpdateName(_ peripheral: CBPeripheral)
    /// The peer's GATT database changed (Service Changed indication, Vol 3, Part G,
    /// §7.1): `invalidatedServices` are gone from ``CBPeripheral/services``; discover again
    /// (`peripheral:didModifyServices:`).
    func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService])
    /// The answer to ``CBPeripheral/readRSSI()`` (`peripheral:didReadRSSI:error:`).
    func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?)
    /// ``CBPeripheral/readRSSI()`` finished and ``CBPeripheral/rssi`` holds the value (the
    /// deprecated `peripheralDidUpdateRSSI:error:` of iOS 7 and earlier); called right after
    /// ``peripheral(_:didReadRSSI:error:)-17xfq``.
    func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral, error: (any Error)?)
    /// The answer to ``CBPeripheral/discoverServices(_:)`` (`peripheral:didDiscoverServices:`).
    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?)
    /// The answer to ``CBPeripheral/discoverIncludedServices(_:for:)``
    /// (`peripheral:didDiscoverIncludedServicesForService:error:`).
    func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: (any Error)?)
    /// The answer to ``CBPeripheral/discoverCharacteristics(_:for:)``
    /// (`peripheral:didDiscoverCharacteristicsForService:error:`).
    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?)
    /// A read of `characteristic` finished, or a notification or indication of it arrived;
    /// its ``CBCharacteristic/value`` holds the value (`peripheral:didUpdateValueForCharacteristic:error:`).
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?)
    /// A write with response of `characteristic` finished (`peripheral:didWriteValueForCharacteristic:error:`).
    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?)
    /// The answer to ``CBPeripheral/setNotifyValue(_:for:)``
    /// (`peripheral:didUpdateNotificationStateForCharacteristic:error:`).
    func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?)
    /// The answer to ``CBPeripheral/discoverDescriptors(for:)``
    /// (`peripheral:didDiscoverDescriptorsForCharacteristic:error:`).
    func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?)
    /// A read of `descriptor` finished (`peripheral:didUpdateValueForDescriptor:error:`).
    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: (any Error)?)
    /// A write of `descriptor` finished (`peripheral:didWriteValueForDescriptor:error:`).
    func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: (any Error)?)
    /// ``CBPeripheral/canSendWriteWithoutResponse`` became true after a write without
    /// response found the queue full (`peripheralIsReadyToSendWriteWithoutResponse:`).
    func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral)
    /// The answer to ``CBPeripheral/openL2CAPChannel(_:)`` (`peripheral:didOpenL2CAPChannel:error:`).
    func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: (any Error)?)

    // Old code spells delegate methods with implicitly unwrapped parameters, as the Swift 1
    // SDKs imported them; Apple's Objective-C protocols call those too. The default of each
    // method above forwards to its spelling here, so either spelling is called.

    /// ``peripheralDidUpdateRSSI(_:error:)`` spelled with implicitly unwrapped parameters.
    func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral!, error: (any Error)!)
    /// ``peripheralDidUpdateName(_:)`` spelled with implicitly unwrapped parameters.
    func peripheralDidUpdateName(_ peripheral: CBPeripheral!)
    /// ``peripheral(_:didModifyServices:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didModifyServices invalidatedServices: [CBService]!)
    /// ``peripheral(_:didReadRSSI:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didReadRSSI RSSI: NSNumber!, error: (any Error)!)
    /// ``peripheral(_:didDiscoverServices:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didDiscoverServices error: (any Error)!)
    /// ``peripheral(_:didDiscoverIncludedServicesFor:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didDiscoverIncludedServicesFor service: CBService!, error: (any Error)!)
    /// ``peripheral(_:didDiscoverCharacteristicsFor:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didDiscoverCharacteristicsFor service: CBService!, error: (any Error)!)
    /// ``peripheral(_:didUpdateValueFor:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didUpdateValueFor characteristic: CBCharacteristic!, error: (any Error)!)
    /// ``peripheral(_:didWriteValueFor:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didWriteValueFor characteristic: CBCharacteristic!, error: (any Error)!)
    /// ``peripheral(_:didUpdateNotificationStateFor:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didUpdateNotificationStateFor characteristic: CBCharacteristic!, error: (any Error)!)
    /// ``peripheral(_:didDiscoverDescriptorsFor:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didDiscoverDescriptorsFor characteristic: CBCharacteristic!, error: (any Error)!)
    /// ``peripheral(_:didUpdateValueFor:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didUpdateValueFor descriptor: CBDescriptor!, error: (any Error)!)
    /// ``peripheral(_:didWriteValueFor:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didWriteValueFor descriptor: CBDescriptor!, error: (any Error)!)
    /// ``peripheralIsReady(toSendWriteWithoutResponse:)`` spelled with implicitly unwrapped parameters.
    func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral!)
    /// ``peripheral(_:didOpen:error:)`` spelled with implicitly unwrapped parameters.
    func peripheral(_ peripheral: CBPeripheral!, didOpen channel: CBL2CAPChannel!, error: (any Error)!)
}

extension CBPeripheralDelegate {
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral, error: (any Error)?) {
        self.peripheralDidUpdateRSSI(peripheral as CBPeripheral?, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralDidUpdateName(_ peripheral: CBPeripheral) {
        self.peripheralDidUpdateName(peripheral as CBPeripheral?)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService]) {
        self.peripheral(peripheral as CBPeripheral?, didModifyServices: invalidatedServices)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didReadRSSI: RSSI, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didDiscoverServices: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didDiscoverIncludedServicesFor: service, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didDiscoverCharacteristicsFor: service, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didUpdateValueFor: characteristic, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didWriteValueFor: characteristic, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didUpdateNotificationStateFor: characteristic, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didDiscoverDescriptorsFor: characteristic, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didUpdateValueFor: descriptor, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didWriteValueFor: descriptor, error: error)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {
        self.peripheralIsReady(toSendWriteWithoutResponse: peripheral as CBPeripheral?)
    }
    /// Calls the implicitly unwrapped spelling unless the delegate implements this one.
    public func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: (any Error)?) {
        self.peripheral(peripheral as CBPeripheral?, didOpen: channel, error: error)
    }
}
