import Foundation

// The defaults of the implicitly unwrapped spellings of the delegate methods: each exact
// spelling's default forwards here, so a delegate that implements either is called.

extension CBCentralManagerDelegate {
    /// Does nothing unless the delegate implements it.
    public func centralManager(_ central: CBCentralManager!, willRestoreState dict: [String: Any]!) {}
    /// Does nothing unless the delegate implements it.
    public func centralManager(_ central: CBCentralManager!, didDiscover peripheral: CBPeripheral!, advertisementData: [String: Any]!, rssi RSSI: NSNumber!) {}
    /// Does nothing unless the delegate implements it.
    public func centralManager(_ central: CBCentralManager!, didConnect peripheral: CBPeripheral!) {}
    /// Does nothing unless the delegate implements it.
    public func centralManager(_ central: CBCentralManager!, didFailToConnect peripheral: CBPeripheral!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func centralManager(_ central: CBCentralManager!, didDisconnectPeripheral peripheral: CBPeripheral!, error: (any Error)!) {}
}

extension CBPeripheralDelegate {
    /// Does nothing unless the delegate implements it.
    public func peripheralDidUpdateRSSI(_ peripheral: CBPeripheral!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralDidUpdateName(_ peripheral: CBPeripheral!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didModifyServices invalidatedServices: [CBService]!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didReadRSSI RSSI: NSNumber!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didDiscoverServices error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didDiscoverIncludedServicesFor service: CBService!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didDiscoverCharacteristicsFor service: CBService!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didUpdateValueFor characteristic: CBCharacteristic!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didWriteValueFor characteristic: CBCharacteristic!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didUpdateNotificationStateFor characteristic: CBCharacteristic!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didDiscoverDescriptorsFor characteristic: CBCharacteristic!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didUpdateValueFor descriptor: CBDescriptor!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didWriteValueFor descriptor: CBDescriptor!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralIsReady(toSendWriteWithoutResponse peripheral: CBPeripheral!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheral(_ peripheral: CBPeripheral!, didOpen channel: CBL2CAPChannel!, error: (any Error)!) {}
}

extension CBPeripheralManagerDelegate {

}

extension CBPeripheralManagerDelegate {
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, willRestoreState dict: [String: Any]!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, didAdd service: CBService!, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, central: CBCentral!, didSubscribeTo characteristic: CBCharacteristic!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, central: CBCentral!, didUnsubscribeFrom characteristic: CBCharacteristic!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, didReceiveRead request: CBATTRequest!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, didReceiveWrite requests: [CBATTRequest]!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, didPublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, didUnpublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)!) {}
    /// Does nothing unless the delegate implements it.
    public func peripheralManager(_ peripheral: CBPeripheralManager!, didOpen channel: CBL2CAPChannel!, error: (any Error)!) {}
}
