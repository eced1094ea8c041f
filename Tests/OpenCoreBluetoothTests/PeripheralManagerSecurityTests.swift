import BLE
import Foundation
import OpenCoreBluetooth
import SimulatedTesting
import Testing
import WorldTesting

/// Security on a published service as Core Bluetooth declares it (Apple's
/// `CBCharacteristicProperties` and `CBAttributePermissions` documentation): the
/// encryption-required notify and indicate properties keep notify and indicate on the air
/// and make a subscription pair first; `readEncryptionRequired` alone is readable once the
/// link is encrypted.
@Suite("CBPeripheralManager security", .simulatedOnMainActor, .timeLimit(.minutes(10)))
@MainActor
struct PeripheralManagerSecurityTests {
    static let service = CBUUID(string: "FFB0")
    static let notifying = CBUUID(string: "FFB1")
    static let indicating = CBUUID(string: "FFB2")
    static let secret = CBUUID(string: "FFB3")

    /// Publishes the service on device 0 and connects device 1's front door to it; returns
    /// the manager, the connection and the published characteristics.
    static func publish(_ world: DevicesWorld, _ recorder: RecordingPeripheralDelegate) async throws
        -> (CBPeripheralManager, Connection, [CBMutableCharacteristic]) {
        let manager = CBPeripheralManager(delegate: recorder, queue: nil, options: world.options(0))
        try await waitFor("powered on") { manager.state == .poweredOn }
        let service = CBMutableService(type: Self.service, primary: true)
        let characteristics = [
            CBMutableCharacteristic(type: Self.notifying, properties: [.read, .notifyEncryptionRequired], value: nil, permissions: [.readable]),
            CBMutableCharacteristic(type: Self.indicating, properties: [.indicateEncryptionRequired], value: nil, permissions: []),
            // As Apple's programming guide writes it: no .readable beside the condition.
            CBMutableCharacteristic(type: Self.secret, properties: [.read], value: nil, permissions: [.readEncryptionRequired]),
        ]
        service.characteristics = characteristics
        manager.add(service)
        manager.startAdvertising([CBAdvertisementDataServiceUUIDsKey: [Self.service]])
        try await waitFor("advertising") { manager.isAdvertising }
        let connection = try await world.devices[1].central.connect(to: world.addresses[0], parameters: .fast,
                                                                     timeout: .seconds(devicesWorldPatience))
        return (manager, connection, characteristics)
    }

    static func remote(_ uuid: CBUUID, on connection: Connection) async throws -> RemoteCharacteristic {
        let service = try #require(try await connection.services([0xFFB0]).first)
        let wanted = try #require(BluetoothUUID(uuid.uuidString))
        return try #require(try await connection.characteristics(of: service).first { $0.uuid == wanted })
    }

    @Test("notifyEncryptionRequired and indicateEncryptionRequired keep notify and indicate on the air when the service is published")
    func encryptedSubscriptionsKeepTheirProperties() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        let (manager, connection, _) = try await Self.publish(world, recorder)
        #expect(recorder.events.contains("add FFB0 ok"))
        let notifying = try await Self.remote(Self.notifying, on: connection)
        let indicating = try await Self.remote(Self.indicating, on: connection)
        #expect(notifying.properties == [.read, .notify])
        #expect(indicating.properties == [.indicate])
        #expect(notifying.clientConfiguration != nil && indicating.clientConfiguration != nil)
        withExtendedLifetime(manager) {}
        await world.close()
    }

    @Test("a subscription to a notifyEncryptionRequired value pairs first, then the manager hears it; reading it needed no pairing")
    func subscriptionPairsFirst() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        recorder.readValue = Data([0x07])
        let (manager, connection, published) = try await Self.publish(world, recorder)
        let notifying = try await Self.remote(Self.notifying, on: connection)
        #expect(try await connection.read(notifying) == [0x07])
        #expect(await connection.securityLevel == .none, "reading needed no pairing")
        let values = try await connection.notifications(for: notifying)
        #expect(await connection.securityLevel == .unauthenticated, "subscribing paired first")
        try await waitFor("the subscription") { recorder.events.contains("subscribe FFB1") }
        #expect(published[0].subscribedCentrals?.count == 1)
        #expect(manager.updateValue(Data([0x2A]), for: published[0], onSubscribedCentrals: nil))
        var first: [UInt8]?
        for await value in values {
            first = value
            break
        }
        #expect(first == [0x2A])
        await world.close()
    }

    @Test("readEncryptionRequired alone is readable once the link is encrypted: the read pairs once and the app answers it")
    func readConditionAlone() async throws {
        let world = try await DevicesWorld.make(devices: 2)
        let recorder = RecordingPeripheralDelegate()
        recorder.readValue = Data("trusted".utf8)
        let (manager, connection, _) = try await Self.publish(world, recorder)
        let secret = try await Self.remote(Self.secret, on: connection)
        #expect(try await connection.read(secret) == Array("trusted".utf8))
        #expect(await connection.securityLevel == .unauthenticated)
        #expect(recorder.reads.count == 1, "the app was asked once, on the encrypted link")
        withExtendedLifetime(manager) {}  // a manager let go ends its loops, and nobody answers
        await world.close()
    }
}
