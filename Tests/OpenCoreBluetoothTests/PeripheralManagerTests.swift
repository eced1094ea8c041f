import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// A delegate that records what the peripheral manager tells it, in order.
@MainActor
final class RecordingPeripheralDelegate: NSObject, @MainActor CBPeripheralManagerDelegate {
    var events: [String] = []
    var advertisingErrors: [(any Error)?] = []
    var readyCalls = 0
    var reads: [CBATTRequest] = []
    var writes: [[CBATTRequest]] = []
    /// Answers reads from this value when set.
    var readValue: Data?
    /// Answers every request twice, the second time with an error, to check it is ignored.
    var answerTwice = false
    weak var manager: CBPeripheralManager?

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {
        events.append("state \(peripheral.state.rawValue)")
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didAdd service: CBService, error: (any Error)?) {
        events.append("add \(service.uuid) \(error == nil ? "ok" : "failed")")
    }

    func peripheralManagerDidStartAdvertising(_ peripheral: CBPeripheralManager, error: (any Error)?) {
        events.append("advertising \(error == nil ? "ok" : "failed")")
        advertisingErrors.append(error)
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didSubscribeTo characteristic: CBCharacteristic) {
        events.append("subscribe \(characteristic.uuid)")
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didUnsubscribeFrom characteristic: CBCharacteristic) {
        events.append("unsubscribe \(characteristic.uuid)")
    }

    func peripheralManagerIsReady(toUpdateSubscribers peripheral: CBPeripheralManager) {
        readyCalls += 1
        readyWaiter?.resume()
        readyWaiter = nil
    }

    private var readyWaiter: CheckedContinuation<Void, Never>?

    /// Returns once the ready call has come `count` times (no polling: the delegate call
    /// resumes the wait).
    ///
    /// The count is checked in the continuation's body, where nothing runs between the check
    /// and storing the waiter: entering `withCheckedContinuation` may suspend (a task that
    /// prefers the simulation as its executor goes through the main queue again there), and a
    /// ready call already queued then runs first, before any waiter is stored.
    func readyCall(_ count: Int) async {
        await withCheckedContinuation { continuation in
            if readyCalls >= count {
                continuation.resume()
            } else {
                readyWaiter = continuation
            }
        }
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveRead request: CBATTRequest) {
        reads.append(request)
        guard let readValue else { return }
        if request.offset > readValue.count {
            peripheral.respond(to: request, withResult: .invalidOffset)
        } else {
            request.value = readValue.subdata(in: request.offset ..< readValue.count)
            peripheral.respond(to: request, withResult: .success)
        }
        if answerTwice { peripheral.respond(to: request, withResult: .unlikelyError) }
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]) {
        writes.append(requests)
        guard let first = requests.first else { return }
        peripheral.respond(to: first, withResult: .success)
        if answerTwice { peripheral.respond(to: first, withResult: .unlikelyError) }
    }
}

/// Records the advertisement dictionaries a scan discovers.
@MainActor
final class OverflowDiscoveryRecorder: NSObject, @MainActor CBCentralManagerDelegate {
    var found: [[String: Any]] = []

    func centralManagerDidUpdateState(_ central: CBCentralManager) {}

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                        advertisementData: [String: Any], rssi RSSI: NSNumber) {
        found.append(advertisementData)
    }
}

@Suite("CBPeripheralManager", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PeripheralManagerTests {
    static let first = CBUUID(string: "9F37E282-60B6-42B1-A02F-7341DA5E2EBA")
    static let second = CBUUID(string: "890AA912-C414-440D-88A2-C7F66179589B")

    @Test("two 128-bit UUIDs and an 8-character name: advertisement, scan response, overflow area; manufacturer data is refused")
    func advertisingBudget() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        let manager = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { manager.state == .poweredOn }
        #expect(recorder.events == ["state 5"])

        manager.startAdvertising([CBAdvertisementDataLocalNameKey: "ChatRoom",
                                  CBAdvertisementDataManufacturerDataKey: Data([0x4C, 0x00, 0x02])])
        try await waitFor("the refusal") { recorder.advertisingErrors.count == 1 }
        let refusal = try #require(recorder.advertisingErrors[0] as? CBError)
        #expect(refusal.code == .invalidParameters)
        #expect(!manager.isAdvertising)

        manager.startAdvertising([CBAdvertisementDataLocalNameKey: "ChatRoom",
                                  CBAdvertisementDataServiceUUIDsKey: [Self.first, Self.second]])
        try await waitFor("advertising") { recorder.advertisingErrors.count == 2 }
        #expect(recorder.advertisingErrors[1] == nil)
        #expect(manager.isAdvertising)

        let scanner = world.devices[1]
        let secondUUID = try #require(BluetoothUUID(Self.second.uuidString))
        let firstUUID = try #require(BluetoothUUID(Self.first.uuidString))
        let found = try await Self.firstAdvertisement(on: scanner, filter: ScanFilter(serviceUUIDs: [secondUUID]))
        #expect(found.address.value == world.addresses[0].value)
        #expect(found.serviceUUIDs == [firstUUID], "the first UUID is in the advertisement")
        #expect(found.localName == "ChatRoom", "the name is in the scan response")
        #expect(found.overflowServiceUUIDs(among: [firstUUID, secondUUID]) == [secondUUID], "the second UUID is in the overflow area")
        let response = try AdvertisingData(decoding: found.scanResponseBytes[...])
        #expect(response.localName == "ChatRoom")
        #expect(response.manufacturerData?.companyIdentifier == 0x004C)

        // A central scanning for the overflowed UUID discovers the advertiser and is told
        // where the UUID was, under Apple's overflow key.
        let discoveries = OverflowDiscoveryRecorder()
        let central = CBCentralManager(delegate: discoveries, queue: nil, options: world.options(1))
        try await waitFor("the central powered on") { central.state == .poweredOn }
        central.scanForPeripherals(withServices: [Self.second])
        try await waitFor("the discovery") { !discoveries.found.isEmpty }
        central.stopScan()
        let data = discoveries.found[0]
        #expect(data[CBAdvertisementDataLocalNameKey] as? String == "ChatRoom")
        #expect(data[CBAdvertisementDataServiceUUIDsKey] as? [CBUUID] == [Self.first])
        #expect(data[CBAdvertisementDataOverflowServiceUUIDsKey] as? [CBUUID] == [Self.second])
        manager.stopAdvertising()
        #expect(!manager.isAdvertising)
        await world.close()
    }

    @Test("the dictionary of CLBeaconRegion.peripheralData advertises the iBeacon, connectable; other keys beside it are refused")
    func appleBeaconDictionary() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        let manager = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { manager.state == .poweredOn }
        // What peripheralData(withMeasuredPower: -60) holds: UUID, major 7, minor 9, power.
        let uuid = try #require(ProximityUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let payload = Data(withUnsafeBytes(of: uuid.value.bigEndian) { Array($0) } + [0x00, 0x07, 0x00, 0x09, 0xC4])
        manager.startAdvertising(["kCBAdvDataAppleBeaconKey": payload, CBAdvertisementDataLocalNameKey: "Beacon"])
        try await waitFor("the refusal") { recorder.advertisingErrors.count == 1 }
        #expect((recorder.advertisingErrors[0] as? CBError)?.code == .invalidParameters)
        manager.startAdvertising(["kCBAdvDataAppleBeaconKey": Data(payload.prefix(20))])
        try await waitFor("the second refusal") { recorder.advertisingErrors.count == 2 }
        #expect((recorder.advertisingErrors[1] as? CBError)?.code == .invalidParameters)

        manager.startAdvertising(["kCBAdvDataAppleBeaconKey": payload])
        try await waitFor("advertising") { recorder.advertisingErrors.count == 3 }
        #expect(recorder.advertisingErrors[2] == nil)
        let found = try await Self.firstAdvertisement(on: world.devices[1], filter: ScanFilter())
        let manufacturer = try #require(found.manufacturerData)
        let beacon = try IBeacon(manufacturerData: manufacturer)
        #expect(beacon == IBeacon(uuid: uuid, major: 7, minor: 9, measuredPower: -60))
        #expect(found.connectable, "an iPhone sends its iBeacon as ADV_IND")
        manager.stopAdvertising()
        await world.close()
    }

    @Test("a characteristic with a value and write properties is refused; a read-only one is served by the stack")
    func valuedCharacteristics() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        let manager = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { manager.state == .poweredOn }
        let bad = CBMutableService(type: CBUUID(string: "FFE0"), primary: true)
        bad.characteristics = [CBMutableCharacteristic(type: CBUUID(string: "FFE1"), properties: [.read, .write],
                                                       value: Data([1]), permissions: [.readable, .writeable])]
        let good = CBMutableService(type: CBUUID(string: "FFF0"), primary: true)
        good.characteristics = [CBMutableCharacteristic(type: CBUUID(string: "FFF1"), properties: [.read],
                                                        value: Data("fixed".utf8), permissions: [.readable])]
        manager.add(bad)
        manager.add(good)
        try await waitFor("both answers") { recorder.events.count == 3 }
        #expect(recorder.events == ["state 5", "add FFE0 failed", "add FFF0 ok"])

        manager.startAdvertising([CBAdvertisementDataLocalNameKey: "Fixed"])
        let connection = try await world.devices[1].central.connect(to: world.addresses[0], parameters: .fast,
                                                                     timeout: .seconds(devicesWorldPatience))
        let services = try await connection.services()
        #expect(services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), BluetoothUUID(0xFFF0)])
        let characteristic = try #require(try await connection.characteristics(of: services[2]).first)
        #expect(try await connection.read(characteristic) == Array("fixed".utf8))
        #expect(recorder.reads.isEmpty, "the stack answered")
        await world.close()
    }

    @Test("reads with offsets and writes are answered once by the app; a second answer is ignored")
    func respondExactlyOnce() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        recorder.answerTwice = true
        let value = Data((0 ..< 120).map { UInt8($0) })
        recorder.readValue = value
        let manager = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { manager.state == .poweredOn }
        let service = CBMutableService(type: CBUUID(string: "FFD0"), primary: true)
        let dynamic = CBMutableCharacteristic(type: CBUUID(string: "FFD1"), properties: [.read, .write], value: nil,
                                             permissions: [.readable, .writeable])
        service.characteristics = [dynamic]
        manager.add(service)
        manager.startAdvertising([CBAdvertisementDataServiceUUIDsKey: [CBUUID(string: "FFD0")]])
        try await waitFor("advertising") { manager.isAdvertising }

        let connection = try await world.devices[1].central.connect(to: world.addresses[0], parameters: .fast,
                                                                     timeout: .seconds(devicesWorldPatience))
        let remoteService = try #require(try await connection.services([0xFFD0]).first)
        let remote = try #require(try await connection.characteristics(of: remoteService).first)
        #expect(try await connection.read(remote) == Array(value), "a long read answered piece by piece")
        let offsets = recorder.reads.map(\.offset)
        #expect(offsets.first == 0)
        #expect(offsets.count > 1)
        #expect(offsets == offsets.sorted())
        #expect(recorder.reads.allSatisfy { $0.characteristic === dynamic })

        try await connection.write([7, 8, 9], to: remote)
        let long = (0 ..< 200).map { UInt8(truncatingIfNeeded: $0 &* 3) }
        try await connection.write(long, to: remote)
        #expect(recorder.writes.first?.map { $0.value } == [Data([7, 8, 9])])
        #expect(recorder.writes.dropFirst().flatMap { $0 }.compactMap(\.value).reduce(Data(), +) == Data(long))
        #expect(recorder.writes.allSatisfy { $0.allSatisfy { $0.central.identifier == $0.central.identifier } })
        await world.close()
    }

    @Test("updateValue returns false when the queue is full, the ready callback follows, 500 values arrive in order")
    func backPressure() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        let manager = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { manager.state == .poweredOn }
        let service = CBMutableService(type: CBUUID(string: "FFC0"), primary: true)
        let stream = CBMutableCharacteristic(type: CBUUID(string: "FFC1"), properties: [.notify], value: nil, permissions: [])
        service.characteristics = [stream]
        manager.add(service)
        manager.startAdvertising([CBAdvertisementDataLocalNameKey: "Stream"])
        try await waitFor("advertising") { manager.isAdvertising }

        let connection = try await world.devices[1].central.connect(to: world.addresses[0], parameters: .fast,
                                                                     timeout: .seconds(devicesWorldPatience))
        let remoteService = try #require(try await connection.services([0xFFC0]).first)
        let remote = try #require(try await connection.characteristics(of: remoteService).first)
        let values = try await connection.notifications(for: remote)
        try await waitFor("the subscription") { stream.subscribedCentrals?.count == 1 }
        #expect(recorder.events.last == "subscribe FFC1")

        // Five hundred values overrun the queue of eight many times; the whole suite runs
        // many worlds side by side on few cores, so not more.
        let count = 500
        let receiver = Task {
            var received: [Int] = []
            for await value in values {
                received.append(Int(value[0]) << 8 | Int(value[1]))
                if received.count == count { break }
            }
            return received
        }
        var next = 0, refusals = 0
        while next < count {
            if manager.updateValue(Data([UInt8(next >> 8), UInt8(next & 0xFF)]), for: stream, onSubscribedCentrals: nil) {
                next += 1
            } else {
                refusals += 1
                await recorder.readyCall(refusals)
            }
        }
        #expect(refusals > 0, "a tight loop outruns the air")
        #expect(recorder.readyCalls == refusals, "one ready call per refusal")
        #expect(await receiver.value == Array(0 ..< count))
        try await connection.disconnect()
        try await waitFor("the unsubscription") { recorder.events.last == "unsubscribe FFC1" }
        #expect(stream.subscribedCentrals == nil, "a non-bonded central's subscriptions end with its link")
        await world.close()
    }

    /// The first advertisement `device` sees through `filter`.
    static func firstAdvertisement(on device: BLEDevice, filter: ScanFilter) async throws -> Advertisement {
        let scan = try await device.central.scan(filter: filter)
        for await advertisement in scan { return advertisement }
        throw DevicesWorldTimeout(what: "an advertisement")
    }
}

/// A delegate that records L2CAP publishing and channels.
@MainActor
final class ChannelRecordingDelegate: NSObject, @MainActor CBPeripheralManagerDelegate {
    var published: [CBL2CAPPSM] = []
    var unpublished: [CBL2CAPPSM] = []
    var opened: [CBL2CAPChannel] = []
    var subscribedCentral: CBCentral?

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {}

    func peripheralManager(_ peripheral: CBPeripheralManager, didPublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)?) {
        if error == nil { published.append(PSM) }
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didUnpublishL2CAPChannel PSM: CBL2CAPPSM, error: (any Error)?) {
        if error == nil { unpublished.append(PSM) }
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, didOpen channel: CBL2CAPChannel?, error: (any Error)?) {
        if let channel { opened.append(channel) }
    }

    func peripheralManager(_ peripheral: CBPeripheralManager, central: CBCentral, didSubscribeTo characteristic: CBCharacteristic) {
        subscribedCentral = central
    }
}

@Suite("CBPeripheralManager channels and latency", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PeripheralManagerChannelTests {
    @Test("publishL2CAPChannel picks a PSM, a central's channel opens, unpublish ends it; a latency step reaches the link")
    func channelsAndLatency() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = ChannelRecordingDelegate()
        let manager = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { manager.state == .poweredOn }
        let service = CBMutableService(type: CBUUID(string: "FFB0"), primary: true)
        let characteristic = CBMutableCharacteristic(type: CBUUID(string: "FFB1"), properties: [.notify], value: nil, permissions: [])
        service.characteristics = [characteristic]
        manager.add(service)
        manager.publishL2CAPChannel(withEncryption: false)
        manager.startAdvertising([CBAdvertisementDataLocalNameKey: "Chan"])
        try await waitFor("the PSM") { recorder.published.count == 1 }
        let psm = recorder.published[0]
        #expect(psm == 0x0080)

        let connection = try await world.devices[1].central.connect(to: world.addresses[0], timeout: .seconds(devicesWorldPatience))
        let channel = try await connection.openL2CAPChannel(psm: psm)
        try await waitFor("the channel") { recorder.opened.count == 1 }
        #expect(recorder.opened[0].psm == psm)
        #expect(recorder.opened[0].peer is CBCentral)
        let input: InputStream = recorder.opened[0].inputStream
        input.open()
        try await channel.send(Array("ping".utf8))
        try await waitFor("the bytes") { input.hasBytesAvailable }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = input.read(&buffer, maxLength: buffer.count)
        #expect(Array(buffer.prefix(max(count, 0))) == Array("ping".utf8), "the channel's input stream carries what the central sent")

        let remoteService = try #require(try await connection.services([0xFFB0]).first)
        let remote = try #require(try await connection.characteristics(of: remoteService).first)
        _ = try await connection.notifications(for: remote)
        try await waitFor("the subscription") { recorder.subscribedCentral != nil }
        let central = try #require(recorder.subscribedCentral)
        #expect(central.identifier == recorder.opened[0].peer.identifier, "one central, one identifier")
        manager.setDesiredConnectionLatency(.high, for: central)
        try await waitFor("the high-latency parameters") { connection.parameters.latency == 4 }
        #expect(connection.parameters.interval >= .milliseconds(100))

        manager.unpublishL2CAPChannel(psm)
        try await waitFor("the unpublication") { recorder.unpublished == [psm] }
        await #expect(throws: BLEError.self) { _ = try await connection.openL2CAPChannel(psm: psm) }
        await world.close()
    }
}
