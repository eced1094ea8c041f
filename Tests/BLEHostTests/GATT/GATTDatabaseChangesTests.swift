import BLEHost
import BLEWire
import Testing

@Suite("The handles a Service Changed indication names (Vol 3, Part G, §7.1)")
struct GATTDatabaseChangesTests {
    static let battery = GATTServiceDefinition(uuid: 0x180F, characteristics: [
        GATTCharacteristicDefinition(uuid: 0x2A19, properties: [.read, .notify], value: .stored([0x64])),
    ])
    static let heartRate = GATTServiceDefinition(uuid: 0x180D, characteristics: [
        GATTCharacteristicDefinition(uuid: 0x2A37, properties: .notify, value: .stored([])),
        GATTCharacteristicDefinition(uuid: 0x2A38, properties: .read, value: .stored([0x01])),
    ])

    static func database(_ services: [GATTServiceDefinition]) throws -> GATTDatabase {
        try GATTDatabase(services: services)
    }

    @Test("the same services: nothing to indicate")
    func unchanged() throws {
        let a = try Self.database([Self.battery])
        #expect(try Self.database([Self.battery]).changedHandles(since: a) == nil)
    }

    @Test("a service added last: from its first handle to its last; the services before it are untouched")
    func added() throws {
        let before = try Self.database([Self.battery])
        let after = try Self.database([Self.battery, Self.heartRate])
        let added = try #require(after.services.last)
        #expect(added.uuid == BluetoothUUID(0x180D))
        #expect(after.changedHandles(since: before) == added.handles.lowerBound ... after.lastHandle)
        #expect(after.changedHandles(since: before)?.overlaps(try #require(before.services.last).handles) == false)
    }

    @Test("a service removed from the middle: from its first handle to the old database's end")
    func removed() throws {
        let before = try Self.database([Self.heartRate, Self.battery])
        let after = try Self.database([Self.battery])
        let removed = try #require(before.services.first { $0.uuid == BluetoothUUID(0x180D) })
        #expect(after.changedHandles(since: before) == removed.handles.lowerBound ... before.lastHandle)
    }

    @Test("a characteristic changed inside a service: from that service on")
    func modified() throws {
        let before = try Self.database([Self.battery, Self.heartRate])
        let changedBattery = GATTServiceDefinition(uuid: 0x180F, characteristics: [
            GATTCharacteristicDefinition(uuid: 0x2A19, properties: .read, value: .stored([0x64])),
        ])
        let after = try Self.database([changedBattery, Self.heartRate])
        let battery = try #require(before.services.first { $0.uuid == BluetoothUUID(0x180F) })
        #expect(after.changedHandles(since: before) == battery.handles.lowerBound ... before.lastHandle)
    }
}
