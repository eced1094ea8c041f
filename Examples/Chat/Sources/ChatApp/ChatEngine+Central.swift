#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif
import BLEChat
import Foundation

/// Discovery and the central role: scan for the discovery service (duplicates allowed, so
/// a partner's invitation is seen as soon as its name changes), connect to a partner that
/// invites us, find the session characteristic, subscribe, then write frames.
extension ChatEngine: @MainActor CBCentralManagerDelegate {
    /// Powered on: scan for the discovery service (Core Bluetooth delegate call).
    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        guard central.state == .poweredOn else {
            report(.note("central: state \(central.state.rawValue)"))
            return
        }
        central.scanForPeripherals(withServices: [CBUUID(string: ChatUUIDs.discoveryService)],
                                   options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
    }

    /// An advertisement: a chat device's name carries its ID and maybe an invitation.
    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                               advertisementData: [String: Any], rssi RSSI: NSNumber) {
        let name = advertisementData[CBAdvertisementDataLocalNameKey] as? String ?? peripheral.name
        guard let name, let seen = ChatAdvertisement(localName: name) else { return }
        discovered(seen, peripheral: peripheral)
    }

    /// Connected as central: find the session service.
    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([CBUUID(string: ChatUUIDs.sessionService)])
    }

    /// The connection failed; the next invitation seen tries again.
    public func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
        connecting = false
        report(.note("connection failed: \(error.map { "\($0)" } ?? "no reason")"))
    }

    /// The link is gone; the next invitation seen reconnects.
    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral, error: (any Error)?) {
        connecting = false
        sessionCharacteristic = nil
        linkDown("disconnected\(error.map { ": \($0.localizedDescription)" } ?? "")")
    }

    /// Connects to the partner's peripheral unless a connection is up or on its way.
    func connect(_ peripheral: CBPeripheral) {
        guard !connecting, let central else { return }
        if partnerPeripheral == nil { report(.role(.central(partner: partner ?? advertisement.device))) }
        connecting = true
        partnerPeripheral = peripheral
        central.connect(peripheral, options: nil)
    }

    /// Writes the next frame once the previous write was answered (write with response:
    /// the answer is the flow control, Core 5.4, Vol 3, Part F, §3.4.5.1).
    func pumpWrites() {
        guard !writeInFlight, let peripheral = partnerPeripheral, let characteristic = sessionCharacteristic else { return }
        // Frames fit one ATT_MTU − 3 so that no write becomes a long (prepared) write.
        let room = peripheral.maximumWriteValueLength(for: .withoutResponse)
        guard let frame = session.nextFrame(maximumLength: room, now: now) else { return }
        writeInFlight = true
        peripheral.writeValue(frame, for: characteristic, type: .withResponse)
    }

    /// A silent link: as central, cancel the connection, which ends in
    /// `didDisconnectPeripheral` (the partner's invitation, seen again, reconnects); as
    /// peripheral, forget the subscriber and advertise again for the partner to come back.
    func linkSilent() {
        switch rendezvous.role {
        case .central?:
            if let partnerPeripheral { central?.cancelPeripheralConnection(partnerPeripheral) }
        case .peripheral?:
            subscriber = nil
            advertise()
        case nil:
            break
        }
    }
}

extension ChatEngine: @MainActor CBPeripheralDelegate {
    /// Services found: find the session characteristic.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        guard let service = peripheral.services?.first(where: { $0.uuid == CBUUID(string: ChatUUIDs.sessionService) }) else {
            report(.note("the partner has no session service\(error.map { ": \($0)" } ?? "")"))
            central?.cancelPeripheralConnection(peripheral)
            return
        }
        peripheral.discoverCharacteristics([CBUUID(string: ChatUUIDs.sessionCharacteristic)], for: service)
    }

    /// Characteristics found: subscribe to the session characteristic.
    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        guard let characteristic = service.characteristics?.first(where: {
            $0.uuid == CBUUID(string: ChatUUIDs.sessionCharacteristic)
        }) else {
            report(.note("the session service has no session characteristic"))
            central?.cancelPeripheralConnection(peripheral)
            return
        }
        sessionCharacteristic = characteristic
        peripheral.setNotifyValue(true, for: characteristic)
    }

    /// Subscribed: the link is up on the central side.
    public func peripheral(_ peripheral: CBPeripheral, didUpdateNotificationStateFor characteristic: CBCharacteristic,
                           error: (any Error)?) {
        guard error == nil, characteristic.isNotifying else {
            report(.note("subscribing failed: \(error.map { "\($0)" } ?? "not notifying")"))
            central?.cancelPeripheralConnection(peripheral)
            return
        }
        writeInFlight = false
        linkUp(central: true)
    }

    /// A notification: one frame from the peripheral.
    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        guard error == nil, let value = characteristic.value else { return }
        received(value)
    }

    /// A write was answered: the next frame may go.
    public func peripheral(_ peripheral: CBPeripheral, didWriteValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        writeInFlight = false
        if let error {
            // The frame may not have arrived; the session re-sends it on the next link.
            report(.note("write failed: \(error.localizedDescription)"))
            central?.cancelPeripheralConnection(peripheral)
            return
        }
        pump()
    }
}
