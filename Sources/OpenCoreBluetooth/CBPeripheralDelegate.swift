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
}

extension CBPeripheralDelegate {
    /// Does nothing unless the delegate implements it.
    public func peripheralDidUpdateName(_ peripheral: CBPeripheral) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didModifyServices invalidatedServices: [CBService]) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didReadRSSI RSSI: NSNumber, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverIncludedServicesFor service: CBService, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverDescriptorsFor characteristic: CBCharacteristic, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor descriptor: CBDescriptor, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didWriteValueFor descriptor: CBDescriptor, error: (any Error)?) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: (any Error)?) {}
}
