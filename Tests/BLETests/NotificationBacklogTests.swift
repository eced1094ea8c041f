import BLE
import SimulatedTesting
import Testing

/// A subscription whose app stopped reading: it holds ``GATTNotifications/backlog`` values,
/// the newest, and counts the older ones it let go (docs/limits.md).
@Suite("Notifications an app does not read", .simulated, .timeLimit(.minutes(5)))
struct NotificationBacklogTests {
    static let service = BluetoothUUID(0xFE30)
    static let counter = BluetoothUUID(0xFE31)

    @Test("76 values past the backlog push out the 76 oldest; the newest 1,024 are read in order")
    func backlogKeepsNewest() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        let published = try await server.peripheral.publish {
            Service(Self.service) { Characteristic(Self.counter, properties: [.notify]) }
        }
        let counter = try #require(published.characteristic(Self.counter))
        _ = try await server.peripheral.advertise(name: "Counter", serviceUUIDs: [Self.service], interval: .milliseconds(20))
        let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        let services = try await connection.services()
        let characteristics = try await connection.characteristics(of: try #require(services.last))
        let values = try await connection.notifications(for: try #require(characteristics.first))

        let sent = GATTNotifications.backlog + 76
        for index in 0 ..< sent { try await server.peripheral.notify([UInt8(index & 0xFF), UInt8(index >> 8)], to: counter) }
        let clock = testClock
        let deadline = clock.microseconds + Int64(patience * 1e6)
        while values.droppedValues < 76, clock.microseconds < deadline {
            try await clock.sleep(for: .milliseconds(10))  // re-check interval, not a wait for an outcome
        }
        #expect(values.droppedValues == 76)
        var received: [Int] = []
        for await value in values {
            received.append(Int(value[0]) | Int(value[1]) << 8)
            if received.count == GATTNotifications.backlog { break }
        }
        #expect(received == Array(76 ..< sent))
        #expect(values.droppedValues == 76)
        await world.close()
    }
}
