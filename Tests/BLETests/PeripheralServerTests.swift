import BLE
import SimulatedTesting
import Synchronization
import Testing

/// The peripheral-side pieces Core Bluetooth's peripheral manager stands on: the
/// non-suspending notify, app-answered requests, services added and removed, subscriptions.
@Suite("Peripheral GATT server for Core Bluetooth's model", .simulated, .timeLimit(.minutes(10)))
struct PeripheralServerTests {
    static let service = BluetoothUUID(0xFFA0)
    static let stream = BluetoothUUID(0xFFA1)
    static let dynamic = BluetoothUUID(0xFFA2)

    @Test("updateValue refuses when the queue is full, readyToUpdate follows, every value arrives in order")
    func nonSuspendingNotify() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        let published = try await server.peripheral.publish {
            Service(Self.service) { Characteristic(Self.stream, properties: [.notify]) }
        }
        let characteristic = try #require(published.characteristic(Self.stream))
        _ = try await server.peripheral.advertise(name: "Q", interval: .milliseconds(20))
        let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        let service = try #require(try await connection.services([Self.service]).first)
        let remote = try #require(try await connection.characteristics(of: service).first)
        let values = try await connection.notifications(for: remote)
        while await server.peripheral.subscribers(of: characteristic).isEmpty { await Task.yield() }

        // Enough to overrun the queue many times; the suite runs beside many worlds.
        let count = 400
        let peripheral = server.peripheral
        let sender = Task {
            var ready = peripheral.readyToUpdate.makeAsyncIterator()
            var refusals = 0
            var next = 0
            while next < count {
                if peripheral.updateValue([UInt8(next >> 8), UInt8(next & 0xFF)], for: characteristic) {
                    next += 1
                } else {
                    refusals += 1
                    guard await ready.next() != nil else { break }
                }
            }
            return refusals
        }
        var received: [Int] = []
        for await value in values {
            received.append(Int(value[0]) << 8 | Int(value[1]))
            if received.count == count { break }
        }
        let refusals = await sender.value
        #expect(received == Array(0 ..< count))
        #expect(refusals > 0, "a tight loop outruns the air")
        #expect(peripheral.queuedUpdates == 0)
        await world.close()
    }

    @Test("app-answered reads and writes (a long write as one batch) are answered exactly once; subscriptions are reported")
    func requestsAndSubscriptions() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        try await server.peripheral.publish {
            Service(Self.service) {
                Characteristic(Self.stream, properties: [.notify])
                Characteristic.answeredByRequests(Self.dynamic, properties: [.read, .write])
            }
        }
        let value = (0 ..< 100).map { UInt8($0) }
        let offsets = Mutex<[Int]>([])
        let writes = Mutex<[[UInt8]]>([])
        let secondAnswers = Mutex<[Bool]>([])
        let peripheral = server.peripheral
        let answering = Task {
            for await request in peripheral.requests {
                switch request {
                case let .read(read):
                    offsets.withLock { $0.append(read.request.offset) }
                    let offset = read.request.offset
                    let result: Result<[UInt8], ATT.ErrorCode> = offset <= value.count ? .success(Array(value[offset...])) : .failure(.invalidOffset)
                    #expect(await read.respond(result))
                    let again = await read.respond(.failure(.unlikelyError))
                    secondAnswers.withLock { $0.append(again) }
                case let .write(batch):
                    writes.withLock { $0 += batch.writes.map(\.request.value) }
                    #expect(await batch.respond(.success(())))
                    let again = await batch.respond(.failure(.unlikelyError))
                    secondAnswers.withLock { $0.append(again) }
                }
            }
        }
        var changes = peripheral.subscriptionChanges.makeAsyncIterator()
        _ = try await server.peripheral.advertise(name: "R", interval: .milliseconds(20))
        let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        let service = try #require(try await connection.services([Self.service]).first)
        let characteristics = try await connection.characteristics(of: service)
        let (notifying, dynamic) = (characteristics[0], characteristics[1])

        // ATT_MTU is 517 here, so one read; OpenCoreBluetooth's tests read with offsets.
        #expect(try await connection.read(dynamic) == value)
        #expect(offsets.withLock { $0 } == [0])
        try await connection.write([1, 2, 3], to: dynamic)
        let long = (0 ..< 300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try await connection.write(long, to: dynamic)
        #expect(writes.withLock { $0 }.first == [1, 2, 3])
        #expect(writes.withLock { $0 }.dropFirst().flatMap { $0 } == long, "the parts of a long write come as one batch")
        #expect(secondAnswers.withLock { $0 }.allSatisfy { !$0 })

        let values = try await connection.notifications(for: notifying)
        let subscribed = await changes.next()
        #expect(subscribed?.isSubscribed == true)
        #expect(subscribed?.connection == connection.handle)
        values.cancel()
        try await connection.disconnect()
        let unsubscribed = await changes.next()
        #expect(unsubscribed?.isSubscribed == false)
        #expect(unsubscribed?.valueHandle == subscribed?.valueHandle)
        answering.cancel()
        await world.close()
    }

    @Test("services added and removed while running: later services move down, the client sees the layout")
    func addAndRemove() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        let peripheral = server.peripheral
        let first = try await peripheral.add(Service(0xFFB0) { Characteristic(0xFFB1, properties: [.read], value: [1]) })
        let both = try await peripheral.add(Service(0xFFC0) { Characteristic(0xFFC1, properties: [.read], value: [2]) })
        #expect(both.services.map(\.uuid) == [BluetoothUUID(0xFFB0), BluetoothUUID(0xFFC0)])
        #expect(both.services[0].characteristics == first.services[0].characteristics, "adding leaves earlier handles alone")
        let left = try await peripheral.remove(both.services[0].id)
        #expect(left.services.map(\.uuid) == [BluetoothUUID(0xFFC0)])
        let moved = try #require(left.services.first?.characteristics.first)
        #expect(moved.valueHandle < both.services[1].characteristics[0].valueHandle)

        _ = try await peripheral.advertise(name: "S", interval: .milliseconds(20))
        let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        let services = try await connection.services()
        #expect(services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), BluetoothUUID(0xFFC0)])
        let last = try #require(services.last)
        let remote = try #require(try await connection.characteristics(of: last).first)
        #expect(remote.valueHandle == moved.valueHandle)
        #expect(try await connection.read(remote) == [2])
        let none = try await peripheral.removeAllServices()
        #expect(none.services.isEmpty)
        await world.close()
    }
}

@Suite("Service Changed on services added and removed", .simulated, .timeLimit(.minutes(10)))
struct ServiceChangedOnChangeTests {
    @Test("a client subscribed to Service Changed is indicated on add, remove and removeAllServices")
    func indicated() async throws {
        let world = try await SharedWorld.make(devices: 2)
        let (server, client) = (world.devices[0], world.devices[1])
        let peripheral = server.peripheral
        try await peripheral.add(Service(0xFFB0) { Characteristic(0xFFB1, properties: [.read], value: [1]) })
        _ = try await peripheral.advertise(name: "C", interval: .milliseconds(20))
        let connection = try await client.central.connect(to: world.addresses[0], parameters: .fast, timeout: .seconds(patience))
        let gattService = try #require(try await connection.services([0x1801]).first)
        let serviceChanged = try #require(try await connection.characteristics(of: gattService).first { $0.uuid == BluetoothUUID(0x2A05) })
        var indications = try await connection.notifications(for: serviceChanged).makeAsyncIterator()

        let added = try await peripheral.add(Service(0xFFC0) { Characteristic(0xFFC1, properties: [.read], value: [2]) })
        #expect(try #require(await indications.next()).count == 4, "Service Changed carries the affected range")
        try await peripheral.remove(try #require(added.services.first).id)
        #expect(try #require(await indications.next()).count == 4)
        try await peripheral.removeAllServices()
        let last = try #require(await indications.next())
        #expect(last.count == 4)
        let services = try await connection.services()
        #expect(services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801)], "the client rediscovers what is left")
        await world.close()
    }
}
