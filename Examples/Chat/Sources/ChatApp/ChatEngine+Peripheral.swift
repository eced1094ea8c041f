#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif
import BLEChat
import Foundation

/// Advertising and the peripheral role: advertise the discovery service with the chat
/// name; when inviting, publish the session service, advertise the invitation, and notify
/// frames to the subscribed partner with back-pressure.
extension ChatEngine: @MainActor CBPeripheralManagerDelegate {
    /// Powered on: advertise the discovery service.
    public func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        guard peripheral.state == .poweredOn else {
            report(.note("peripheral: state \(peripheral.state.rawValue)"))
            return
        }
        advertise()
    }

    /// The session service is published: advertise the invitation.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {
        if let error {
            report(.note("publishing the session service failed: \(error.localizedDescription)"))
            return
        }
        sessionPublished = true
        advertise()
    }

    /// Advertising started, or failed: logged, and tried again on the clock's tick a second
    /// later while no partner is subscribed, since the partner finds this device only by
    /// its advertising.
    public func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?) {
        guard let error else { return }
        report(.note("advertising failed: \(error.localizedDescription)"))
        guard subscriber == nil else { return }
        advertisingRetry = now + .seconds(1)
    }

    /// The partner subscribed: the link is up on the peripheral side.
    public func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral,
                                  didSubscribeTo characteristic: CBCharacteristic) {
        subscriber = central
        pendingNotification = nil
        linkUp(central: false)
    }

    /// The partner unsubscribed (or disconnected): the link is down; advertise again.
    public func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral,
                                  didUnsubscribeFrom characteristic: CBCharacteristic) {
        guard subscriber?.identifier == central.identifier else { return }
        subscriber = nil
        linkDown("the partner unsubscribed")
        // Advertise again, so the partner can come back.
        advertise()
    }

    /// Writes from the central: frames, answered once per request batch.
    public func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]) {
        guard let first = requests.first else { return }
        for request in requests {
            guard request.characteristic.uuid == CBUUID(string: ChatUUIDs.sessionCharacteristic), request.offset == 0 else {
                peripheral.respond(to: first, withResult: .invalidOffset)
                return
            }
        }
        peripheral.respond(to: first, withResult: .success)
        for request in requests {
            if let value = request.value { received(value) }
        }
    }

    /// The transmit queue has room again: send the frame that waited.
    public func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {
        pump()
    }

    /// Publishes the session service (once) and advertises the invitation to `partner`.
    func invite(_ partner: ChatDeviceID) {
        invitation = partner
        guard let peripheralManager else { return }
        if sessionService == nil {
            let characteristic = CBMutableCharacteristic(
                type: CBUUID(string: ChatUUIDs.sessionCharacteristic), properties: [.write, .notify], value: nil,
                permissions: [.writeable])
            let service = CBMutableService(type: CBUUID(string: ChatUUIDs.sessionService), primary: true)
            service.characteristics = [characteristic]
            sessionService = service
            notifyingCharacteristic = characteristic
            peripheralManager.add(service)
        }
        advertise()
    }

    /// (Re)starts advertising the discovery service with our name, and the invitation once
    /// the session service is published. Only the two keys Core Bluetooth accepts are used.
    func advertise() {
        guard let peripheralManager, peripheralManager.state == .poweredOn else { return }
        var content = advertisement
        // The invitation goes out once the service it points to can be found.
        if case .peripheral? = rendezvous.role, sessionPublished { content.invites = invitation }
        peripheralManager.stopAdvertising()
        peripheralManager.startAdvertising([
            CBAdvertisementDataLocalNameKey: content.localName,
            CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: ChatUUIDs.discoveryService)],
        ])
    }

    /// Notifies frames while the transmit queue takes them; a refused one waits for
    /// `peripheralManagerIsReady(toUpdateSubscribers:)`.
    func pumpNotifications() {
        guard let peripheralManager, let subscriber, let characteristic = notifyingCharacteristic else { return }
        while true {
            guard let frame = pendingNotification ?? session.nextFrame(maximumLength: subscriber.maximumUpdateValueLength, now: now)
            else { return }
            if peripheralManager.updateValue(frame, for: characteristic, onSubscribedCentrals: [subscriber]) {
                pendingNotification = nil
            } else {
                pendingNotification = frame
                notificationsDeferred += 1
                return
            }
        }
    }
}
