import SimulatedTesting
import BLE
import Foundation
import Testing

@Suite("Connections and L2CAP channels between two devices in one world", .simulated, .simulated, .timeLimit(.minutes(3)))
struct ConnectionTests {
    @Test("a central connects to an advertising peripheral and SDUs of 1 to 2000 octets echo over an L2CAP channel")
    func advertiseConnectEcho() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        let listener = try await server.peripheral.publishL2CAPChannel(psm: 0x0080)
        let session = try await server.peripheral.advertise(name: "Echo", serviceUUIDs: [0xFFE0], interval: .milliseconds(20))
        #expect(session.advertisingData.localName == "Echo")
        let echo = Task {
            for await channel in listener {
                for await sdu in channel.incoming { try await channel.send(sdu) }
            }
        }
        let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        #expect(connection.role == .central)
        #expect(connection.peer == world.addresses[0])
        #expect(connection.isConnected)
        let accepted = try await within {
            for await incoming in server.peripheral.connections { return incoming }
            throw TimedOut()
        }
        #expect(accepted.role == .peripheral)
        #expect(accepted.peer == world.addresses[1])

        let channel = try await connection.openL2CAPChannel(psm: 0x0080)
        #expect(channel.peerMTU == 2048)
        #expect(channel.connection === connection)
        let sizes = [1, 23, 246, 247, 248, 1000, 2000]
        let replies = try await within {
            for (index, size) in sizes.enumerated() {
                let sdu = (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) }
                if index.isMultiple(of: 2) { try await channel.send(sdu) } else { try await channel.send(Data(sdu)) }
            }
            var replies: [[UInt8]] = []
            for await sdu in channel.incoming {
                replies.append(sdu)
                if replies.count == sizes.count { break }
            }
            return replies
        }
        #expect(replies == sizes.enumerated().map { index, size in (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) } })
        await #expect(throws: BLEError.sduTooLong(octets: 2049, peerMTU: 2048)) {
            try await channel.send([UInt8](repeating: 0, count: 2049))
        }
        await channel.close()
        await #expect(throws: BLEError.channelClosed(.closedLocally)) {
            try await channel.send([1])
        }
        echo.cancel()
        await world.close()
    }

    @Test("a disconnection is seen by both sides with its reason, and later calls say the link is down")
    func disconnectReasons() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (peripheralDevice, centralDevice) = (world.devices[0], world.devices[1])
        _ = try await peripheralDevice.peripheral.advertise(name: "Peripheral", interval: .milliseconds(20))
        let connection = try await centralDevice.central.connect(to: world.addresses[0], timeout: .seconds(patience))
        let accepted = try await within {
            for await incoming in peripheralDevice.peripheral.connections { return incoming }
            throw TimedOut()
        }
        let waiter = Task { try await accepted.disconnected }
        try await connection.disconnect()
        #expect(!connection.isConnected)
        #expect(connection.disconnectReason == .connectionTerminatedByLocalHost)
        #expect(try await connection.disconnected == .connectionTerminatedByLocalHost)
        let peerReason = try await within { try await waiter.value }
        #expect(peerReason == .remoteUserTerminatedConnection)
        #expect(accepted.disconnectReason == .remoteUserTerminatedConnection)
        await #expect(throws: BLEError.disconnected(.connectionTerminatedByLocalHost)) {
            _ = try await connection.readRSSI()
        }
        await #expect(throws: BLEError.disconnected(.remoteUserTerminatedConnection)) {
            _ = try await accepted.openL2CAPChannel(psm: 0x0080)
        }
        #expect(centralDevice.connections.isEmpty)
        await world.close()
    }

    @Test("connecting to an address nobody advertises from fails with a timeout")
    func connectTimeout() async throws {
        let world = try await SharedWorld.make(devices: 1)
        let nobody = BluetoothAddress(0xC0_FF_EE_00_00_01, kind: .random)
        await #expect(throws: BLEError.timeout) {
            _ = try await world.devices[0].central.connect(to: nobody, timeout: .milliseconds(300))
        }
        #expect(world.devices[0].connections.isEmpty)
        await world.close()
    }

    @Test("either side updates the parameters, both see the new ones, and the central reads the RSSI")
    func parametersAndRSSI() async throws {
        let world = try await SharedWorld.make(devices: 2)
        _ = try await world.devices[0].peripheral.advertise(interval: .milliseconds(20))
        let connection = try await world.devices[1].central.connect(to: world.addresses[0], timeout: .seconds(patience))
        #expect(connection.parameters.interval == .milliseconds(30))
        let accepted = try await within {
            for await incoming in world.devices[0].peripheral.connections { return incoming }
            throw TimedOut()
        }
        let applied = try await connection.updateParameters(ConnectionParameterRequest(
            interval: .milliseconds(50) ... .milliseconds(50), latency: 1, supervisionTimeout: .seconds(4)))
        #expect(applied == ConnectionParameters(interval: .milliseconds(50), latency: 1, supervisionTimeout: .seconds(4)))
        #expect(connection.parameters == applied)
        // The peripheral's dispatcher reads the same LE Connection Update Complete. A
        // connection has no stream of parameter changes to wait on, so poll its snapshot.
        _ = try await within {
            while accepted.parameters != applied { try await testClock.sleep(for: .milliseconds(10)) }
            return true
        }
        let rssi = try #require(try await connection.readRSSI())
        #expect(rssi < 0 && rssi > -100)
        // The peripheral asks the central over L2CAP; the central's host accepts and applies.
        let asked = try await accepted.updateParameters(ConnectionParameterRequest(
            interval: .milliseconds(20) ... .milliseconds(40), latency: 0, supervisionTimeout: .seconds(3)))
        #expect(asked.interval >= .milliseconds(20) && asked.interval <= .milliseconds(40))
        #expect(asked.supervisionTimeout == .seconds(3))
        _ = try await within {  // polled, as above
            while connection.parameters != asked { try await testClock.sleep(for: .milliseconds(10)) }
            return true
        }
        await world.close()
    }

    @Test("a second advertise while advertising throws advertisingInProgress; after stop it works")
    func oneAdvertisementAtATime() async throws {
        let world = try await SharedWorld.make(devices: 1)
        let peripheral = world.devices[0].peripheral
        let session = try await peripheral.advertise(name: "First")
        await #expect(throws: BLEError.advertisingInProgress) {
            _ = try await peripheral.advertise(name: "Second")
        }
        try await session.stop()
        let second = try await peripheral.advertise(name: "Second")
        // Stopping the old session again leaves the new one running.
        try await session.stop()
        await #expect(throws: BLEError.advertisingInProgress) {
            _ = try await peripheral.advertise(name: "Third")
        }
        try await second.stop()
        await world.close()
    }

    @Test("what a peripheral advertises reaches a central's scan, the name in the scan response when it does not fit")
    func advertisedContentIsScanned() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let long = BluetoothUUID("D0611E78-BBB4-4591-A5F8-487910AE4366")
        let session = try await world.devices[0].peripheral.advertise(
            // 3 (flags) + 4 + 18 (service lists) + 6 (manufacturer) fill the advertisement;
            // service data, TX power and the name go into the scan response.
            name: "Peripheral long name", serviceUUIDs: [0x180D, try #require(long)],
            manufacturerData: AdvertisingData.ManufacturerData(companyIdentifier: 0x0059, data: [0x01, 0x02]),
            serviceData: [BluetoothUUID(0x180F): [0x5A]], txPower: -4, interval: .milliseconds(20))
        #expect(session.scanResponse.localName == "Peripheral long name")
        let scan = try await world.devices[1].central.scan(filter: ScanFilter(addresses: [world.addresses[0]]))
        let seen = try await first(of: scan) { $0.localName != nil }
        #expect(seen.localName == "Peripheral long name")
        #expect(seen.serviceUUIDs.contains(BluetoothUUID(0x180D)))
        #expect(seen.manufacturerData?.companyIdentifier == 0x0059)
        #expect(seen.manufacturerData.map { Array($0.data) } == [0x01, 0x02])
        #expect(seen.serviceData[BluetoothUUID(0x180F)] == [0x5A])
        #expect(seen.txPower == -4)
        #expect(seen.connectable)
        await world.close()
    }

    @Test("closing a device says goodbye to its peers and its calls then throw closed")
    func closeEndsConnections() async throws {
        let world = try await SharedWorld.make(devices: 2)
        _ = try await world.devices[0].peripheral.advertise(interval: .milliseconds(20))
        let connection = try await world.devices[1].central.connect(to: world.addresses[0], timeout: .seconds(patience))
        let accepted = try await within {
            for await incoming in world.devices[0].peripheral.connections { return incoming }
            throw TimedOut()
        }
        await world.devices[0].close()
        #expect(accepted.disconnectReason == .connectionTerminatedByLocalHost)
        let reason = try await within { try await connection.disconnected }
        #expect(reason == .remoteUserTerminatedConnection)
        await #expect(throws: BLEError.closed) {
            _ = try await world.devices[0].central.scan()
        }
        // The closed device's queue of incoming connections ends.
        var iterator = world.devices[0].peripheral.connections.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        await world.close()
    }
}
