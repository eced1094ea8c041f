// Written as Apple-platform L2CAP code commonly is: only the import differs. The PSM is
// published in Apple's PSM characteristic, the channel's streams are read and written only
// in their delegate's callbacks, scheduled on the current run loop (from the main queue)
// on one side and on the main run loop on the other.
#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif

let channelEchoService = CBUUID(string: "FE10")

/// A peripheral that publishes an L2CAP channel and echoes every byte it receives.
class ChannelEchoServer: NSObject, CBPeripheralManagerDelegate, StreamDelegate {
    var manager: CBPeripheralManager!
    var channel: CBL2CAPChannel?
    var pending = Data()
    var events: [String] = []

    func start(options: [String: Any]? = nil) {
        manager = CBPeripheralManager(delegate: self, queue: nil, options: options)
    }

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        if peripheral.state == .poweredOn {
            peripheral.publishL2CAPChannel(withEncryption: false)
        }
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didPublishL2CAPChannel PSM: CBL2CAPPSM, error: Error?) {
        var psm = PSM.littleEndian
        let value = Data(bytes: &psm, count: 2)
        let characteristic = CBMutableCharacteristic(type: CBUUID(string: CBUUIDL2CAPPSMCharacteristicString),
                                                     properties: [.read], value: value, permissions: [.readable])
        let service = CBMutableService(type: channelEchoService, primary: true)
        service.characteristics = [characteristic]
        peripheral.add(service)
        peripheral.startAdvertising([CBAdvertisementDataServiceUUIDsKey: [channelEchoService],
                                     CBAdvertisementDataLocalNameKey: "Echo"])
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didOpen channel: CBL2CAPChannel?, error: Error?) {
        guard let channel = channel else { return }
        self.channel = channel
        for stream in [channel.inputStream as Stream, channel.outputStream as Stream] {
            stream.delegate = self
            stream.schedule(in: .current, forMode: .default)
            stream.open()
        }
    }

    func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
        guard let channel = channel else { return }
        let side = aStream === channel.inputStream ? "in" : "out"
        switch eventCode {
        case .openCompleted: events.append("\(side) open")
        case .hasBytesAvailable:
            var buffer = [UInt8](repeating: 0, count: 1024)
            while channel.inputStream.hasBytesAvailable {
                let count = channel.inputStream.read(&buffer, maxLength: buffer.count)
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0 ..< count])
            }
            flush()
        case .hasSpaceAvailable: flush()
        case .endEncountered: events.append("\(side) end")
        case .errorOccurred: events.append("\(side) error")
        default: break
        }
    }

    func flush() {
        guard let output = channel?.outputStream else { return }
        while !pending.isEmpty && output.hasSpaceAvailable {
            let written = pending.withUnsafeBytes { bytes in
                output.write(bytes.bindMemory(to: UInt8.self).baseAddress!, maxLength: pending.count)
            }
            if written <= 0 { break }
            pending.removeFirst(written)
        }
    }
}

/// A central that finds the echo server, reads its PSM, opens the channel, sends `message`
/// as fast as the output stream takes it and collects what comes back.
class ChannelEchoClient: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate, StreamDelegate {
    var central: CBCentralManager!
    var peripheral: CBPeripheral?
    var channel: CBL2CAPChannel?
    let message: Data
    var sent = 0
    var received = Data()
    var events: [String] = []

    init(message: Data) {
        self.message = message
        super.init()
    }

    func start(options: [String: Any]? = nil) {
        central = CBCentralManager(delegate: self, queue: nil, options: options)
    }

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn {
            central.scanForPeripherals(withServices: [channelEchoService], options: nil)
        }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard self.peripheral == nil else { return }
        self.peripheral = peripheral
        central.stopScan()
        central.connect(peripheral, options: nil)
    }

    func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([channelEchoService])
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: Error?) {
        guard let service = peripheral.services?.first else { return }
        peripheral.discoverCharacteristics([CBUUID(string: CBUUIDL2CAPPSMCharacteristicString)], for: service)
    }

    func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: Error?) {
        guard let characteristic = service.characteristics?.first else { return }
        peripheral.readValue(for: characteristic)
    }

    func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: Error?) {
        guard let value = characteristic.value, value.count == 2 else { return }
        peripheral.openL2CAPChannel(CBL2CAPPSM(value[0]) | CBL2CAPPSM(value[1]) << 8)
    }

    func peripheral(_ peripheral: CBPeripheral, didOpen channel: CBL2CAPChannel?, error: Error?) {
        guard let channel = channel else { return }
        self.channel = channel
        channel.inputStream.delegate = self
        channel.outputStream.delegate = self
        channel.inputStream.schedule(in: .main, forMode: .default)
        channel.outputStream.schedule(in: .main, forMode: .default)
        channel.inputStream.open()
        channel.outputStream.open()
    }

    func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
        guard let channel = channel else { return }
        let side = aStream === channel.inputStream ? "in" : "out"
        switch eventCode {
        case .openCompleted: events.append("\(side) open")
        case .hasSpaceAvailable:
            while sent < message.count && channel.outputStream.hasSpaceAvailable {
                let written = message.withUnsafeBytes { bytes in
                    channel.outputStream.write(bytes.bindMemory(to: UInt8.self).baseAddress! + sent, maxLength: message.count - sent)
                }
                if written <= 0 { break }
                sent += written
            }
        case .hasBytesAvailable:
            var buffer = [UInt8](repeating: 0, count: 700)
            let count = channel.inputStream.read(&buffer, maxLength: buffer.count)
            if count > 0 { received.append(contentsOf: buffer[0 ..< count]) }
        case .endEncountered: events.append("\(side) end")
        case .errorOccurred: events.append("\(side) error")
        default: break
        }
    }
}
