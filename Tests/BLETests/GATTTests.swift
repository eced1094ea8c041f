import BLE
import SimulatedTesting
import Synchronization
import Testing

/// The `BLE` front door's GATT, both sides, between two devices in one world.
@Suite("GATT client and server through the front door", .simulated, .timeLimit(.minutes(3)))
struct GATTTests {
    static let heartRate = BluetoothUUID(0x180D)
    static let measurement = BluetoothUUID(0x2A37)
    static let controlPoint = BluetoothUUID(0x2A39)
    static let name = BluetoothUUID(0xFF01)

    @Test("services, characteristics, long reads and writes, an app-answered value and notifications in order")
    func serverAndClient() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        let writes = Mutex<[[UInt8]]>([])
        let published = try await server.peripheral.publish {
            Service(Self.heartRate) {
                Characteristic(Self.measurement, properties: [.notify])
                Characteristic(Self.controlPoint, properties: [.write], onWrite: { request in
                    writes.withLock { $0.append(request.value) }
                    return request.value == [0x01] ? .success(()) : .failure(.application(0x80))
                })
                Characteristic(Self.name, properties: [.read, .write], value: Array("a heart-rate strap".utf8),
                               descriptors: [.userDescription("Name")])
            }
        }
        let measurement = try #require(published.characteristic(Self.measurement))
        _ = try await server.peripheral.advertise(name: "HR", serviceUUIDs: [0x180D], interval: .milliseconds(20))
        let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))

        let services = try await connection.services()
        #expect(services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), Self.heartRate])
        let characteristics = try await connection.characteristics(of: try #require(services.last))
        #expect(characteristics.map(\.uuid) == [Self.measurement, Self.controlPoint, Self.name])
        let (notifying, control, name) = (characteristics[0], characteristics[1], characteristics[2])
        #expect(notifying.clientConfiguration != nil)
        #expect(name.descriptors.map(\.uuid) == [BluetoothUUID(0x2901)])
        #expect(try await connection.read(name.descriptors[0]) == Array("Name".utf8))

        #expect(try await connection.read(name) == Array("a heart-rate strap".utf8))
        let long = (0 ..< 400).map { UInt8(truncatingIfNeeded: $0) }
        try await connection.write(long, to: name)
        #expect(try await connection.read(name) == long, "a 400-octet value goes out as a long write and reads back")
        #expect(await connection.maximumWriteLength(for: .withoutResponse) == 514)

        try await connection.write([0x01], to: control)
        await #expect(throws: BLEError.att(.application(0x80), handle: control.valueHandle)) {
            try await connection.write([0x02], to: control)
        }
        #expect(writes.withLock { $0 } == [[0x01], [0x02]])

        let values = try await connection.notifications(for: notifying)
        let count = 200
        let sender = Task {
            for beat in 0 ..< count { try await server.peripheral.notify([0x00, UInt8(beat)], to: measurement) }
        }
        var received: [Int] = []
        for await value in values {
            received.append(Int(value[1]))
            if received.count == count { break }
        }
        try await sender.value
        #expect(received == Array(0 ..< count))
        await world.close()
    }
}
