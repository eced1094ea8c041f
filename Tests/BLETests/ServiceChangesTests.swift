import BLE
import SimulatedTesting
import Testing

@Suite("Service Changed on a connection without a bond", .simulated, .timeLimit(.minutes(3)))
struct ServiceChangesTests {
    static let first = BluetoothUUID(0xFFA0)
    static let added = BluetoothUUID(0xFFB0)

    @Test("serviceChanges() turns the indications on; a service added on the server arrives as a range and the next services() finds it")
    func addedService() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        _ = try await server.peripheral.publish {
            Service(Self.first) { Characteristic(Self.first, properties: [.read], value: [1]) }
        }
        _ = try await server.peripheral.advertise(name: "S", interval: .milliseconds(20))
        let connection = try await client.central.connect(to: world.addresses[0], timeout: .seconds(patience))
        let before = try await connection.services()
        #expect(!before.contains { $0.uuid == Self.added })
        let changes = try await connection.serviceChanges()

        let published = try await server.peripheral.add(Service(Self.added) { Characteristic(Self.added, properties: [.read], value: [2]) })
        let range = try await within {
            for await range in changes { return range }
            throw TimedOut()
        }
        #expect(published.services.last?.uuid == Self.added)
        let after = try await connection.services()
        let service = try #require(after.first { $0.uuid == Self.added })
        #expect(range.overlaps(service.handles))
        #expect(try await connection.characteristics(of: service).map(\.uuid) == [Self.added])

        // The stream ends with the link.
        try await connection.disconnect()
        let ended = try await within {
            for await _ in changes {}
            return true
        }
        #expect(ended)
        await world.close()
    }

    @Test("on a link already down, serviceChanges() throws disconnected")
    func linkDown() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        _ = try await server.peripheral.advertise(name: "S", interval: .milliseconds(20))
        let connection = try await client.central.connect(to: world.addresses[0], timeout: .seconds(patience))
        try await connection.disconnect()
        await #expect(throws: BLEError.self) { _ = try await connection.serviceChanges() }
        await world.close()
    }
}
