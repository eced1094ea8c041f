import BLEHost
import BLEWire
import SimulatedTesting
import Testing

/// Our GATT client against our GATT server, each on its own host, over a simulated world:
/// the Host actor's routing of ATT between bearer, client and server.
@Suite("Host GATT client and server over a simulated world", .simulated, .timeLimit(.minutes(3)))
struct HostGATTTests {
    static let serviceUUID = BluetoothUUID(uuid128: 0xA7E3_C0DE_5B1E_4E6B_9F00_0000_0000_00B0)
    static let longUUID = BluetoothUUID(0xFF01)
    static let dynamicUUID = BluetoothUUID(0xFF02)
    static let notifyUUID = BluetoothUUID(0xFF03)
    static let longValue = (0 ..< 400).map { UInt8(truncatingIfNeeded: $0 * 7) }

    static let services = [GATTServiceDefinition(uuid: serviceUUID, characteristics: [
        GATTCharacteristicDefinition(uuid: longUUID, properties: [.read, .write], permissions: .readWrite, value: .stored(longValue)),
        GATTCharacteristicDefinition(uuid: dynamicUUID, properties: [.read], value: .dynamic),
        GATTCharacteristicDefinition(uuid: notifyUUID, properties: [.notify, .indicate], permissions: [], value: .stored([])),
    ])]

    @Test("discovery, a long read, a long write, an app-answered read, notifications and indications (packets from streams; from inboxes)",
          arguments: [false, true])
    func clientAgainstServer(inboxes: Bool) async throws {
        try await Self.clientAgainstServer(inboxes: inboxes, executors: false)
    }

    static func clientAgainstServer(inboxes: Bool, executors: Bool) async throws {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal", inboxes: inboxes, executors: executors)
        let database = try await hosts.peripheral.publishGATT(Self.services)
        let serverEvents = hosts.peripheral.gattEvents
        let answering = Task {
            for await event in serverEvents {
                if case let .readRequest(request) = event {
                    await hosts.peripheral.respond(to: request.id, with: .success(Array([0xDE, 0xAD, 0xBE, 0xEF].dropFirst(request.offset))))
                }
            }
        }
        defer { answering.cancel() }
        let central = hosts.central, link = hosts.centralHandle

        guard case let .mtu(mtu) = try await central.gatt(.exchangeMTU, on: link) else { throw TimedOut() }
        #expect(mtu == 517)
        guard case let .services(services) = try await central.gatt(.discoverAllPrimaryServices, on: link) else { throw TimedOut() }
        #expect(services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), Self.serviceUUID])
        let ours = try #require(services.last)
        guard case let .characteristics(characteristics) = try await central.gatt(.discoverAllCharacteristics(in: ours.handles), on: link)
        else { throw TimedOut() }
        #expect(characteristics.map(\.uuid) == [Self.longUUID, Self.dynamicUUID, Self.notifyUUID])
        var expectedHandles: [ATT.Handle] = []
        for uuid in [Self.longUUID, Self.dynamicUUID, Self.notifyUUID] {
            if let handle = database.valueHandle(of: uuid, inService: Self.serviceUUID) { expectedHandles.append(handle) }
        }
        #expect(characteristics.map(\.valueHandle) == expectedHandles)
        let long = characteristics[0], dynamic = characteristics[1], notifying = characteristics[2]

        guard case let .value(read) = try await central.gatt(.readLong(long.valueHandle), on: link) else { throw TimedOut() }
        #expect(read == Self.longValue)
        let written = (0 ..< 512).map { UInt8(truncatingIfNeeded: 255 - $0) }
        _ = try await central.gatt(.writeLong(long.valueHandle, written), on: link)
        #expect(await hosts.peripheral.gattDatabase.attribute(at: long.valueHandle)?.value == .stored(written))
        guard case let .value(answered) = try await central.gatt(.read(dynamic.valueHandle), on: link) else { throw TimedOut() }
        #expect(answered == [0xDE, 0xAD, 0xBE, 0xEF])

        guard case let .descriptors(descriptors) = try await central.gatt(.discoverAllDescriptors(of: notifying), on: link),
              let cccd = descriptors.first(where: \.isClientCharacteristicConfiguration) else { throw TimedOut() }
        _ = try await central.gatt(.configure([.notification, .indication], descriptor: cccd.handle), on: link)
        #expect(await hosts.peripheral.subscriptions(of: notifying.valueHandle).map(\.notify) == [true])

        let clientEvents = central.gattEvents
        let count = 300
        // Plain values into the task: capturing `notifying` (bound in a multi-binding `let`)
        // made the Swift 6.3 debug build jump to a null pointer once the task suspended.
        let notifyHandle = notifying.valueHandle, peripheral = hosts.peripheral, peripheralHandle = hosts.peripheralHandle
        let burstInside = executors
        let sender = Task(executorPreference: hosts.executors.first) {
            if burstInside {
                // The burst on the host's isolation: it waits for controller buffers inside
                // the run, so the host must handle Number Of Completed Packets meanwhile.
                try await peripheral.run { host in
                    for index in 0 ..< count {
                        try await host.notify([UInt8(index & 0xFF), UInt8(index >> 8)] + [UInt8](repeating: 0x55, count: 200),
                                              valueHandle: notifyHandle, on: peripheralHandle)
                    }
                }
            } else {
                for index in 0 ..< count {
                    try await peripheral.notify([UInt8(index & 0xFF), UInt8(index >> 8)] + [UInt8](repeating: 0x55, count: 200),
                                                valueHandle: notifyHandle, on: peripheralHandle)
                }
            }
            try await peripheral.indicate([0x01, 0x02], valueHandle: notifyHandle, on: peripheralHandle)
        }
        var received: [Int] = []
        var indicated: [UInt8]?
        for await event in clientEvents {
            switch event {
            case let .notification(_, handle, value) where handle == notifying.valueHandle:
                received.append(value.count == 202 ? Int(value[0]) | Int(value[1]) << 8 : -1)
            case let .indication(_, handle, value) where handle == notifying.valueHandle:
                indicated = value
            default: break
            }
            if indicated != nil { break }
        }
        try await sender.value
        #expect(received == Array(0 ..< count), "every notification arrives, in order")
        #expect(indicated == [0x01, 0x02])
        if executors {
            let threads = hosts.incomingThreads.snapshot
            // A turn the host takes while a caller without the preference (this test) holds
            // it runs on that caller's thread, so only most packets are handled on the host's.
            #expect(threads.on > count, "on the host's thread \(threads.on), off it \(threads.off)")
        }
        await hosts.close()
    }

    @Test("a write to a read-only value gets Write Not Permitted; an encryption-required read on our unencrypted link Insufficient Authentication")
    func errorsReachTheClient() async throws {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal")
        let readOnly = BluetoothUUID(0xFF10), secret = BluetoothUUID(0xFF11)
        try await hosts.peripheral.publishGATT([GATTServiceDefinition(uuid: BluetoothUUID(0xFFF0), characteristics: [
            GATTCharacteristicDefinition(uuid: readOnly, properties: [.read, .write], value: .stored([1, 2, 3])),
            GATTCharacteristicDefinition(uuid: secret, properties: [.read], permissions: [.readable, .readEncryptionRequired],
                                         value: .stored([7])),
        ])])
        let database = await hosts.peripheral.gattDatabase
        let handle = try #require(database.valueHandle(of: readOnly, inService: BluetoothUUID(0xFFF0)))
        let secretHandle = try #require(database.valueHandle(of: secret, inService: BluetoothUUID(0xFFF0)))
        await #expect(throws: GATTClientError.att(.writeNotPermitted, handle: handle)) {
            _ = try await hosts.central.gatt(.write(handle, [9]), on: hosts.centralHandle)
        }
        await #expect(throws: GATTClientError.att(.insufficientAuthentication, handle: secretHandle)) {
            _ = try await hosts.central.gatt(.read(secretHandle), on: hosts.centralHandle)
        }
        guard case let .value(value) = try await hosts.central.gatt(.read(handle), on: hosts.centralHandle) else { throw TimedOut() }
        #expect(value == [1, 2, 3], "the refused write changed nothing")
        await hosts.close()
    }
}

// Hosts on threads of their own are outside any simulation: this one stays on the wall clock.
// The limit catches a hang, not slowness: under CI's full load the run takes minutes.
@Suite("Host GATT with each host on a thread of its own", .timeLimit(.minutes(10)))
struct HostGATTThreadTests {
    @Test("the same procedures from inboxes, each host on a thread of its own, the notifications sent inside Host.run")
    func clientAgainstServerOnThreads() async throws {
        try await HostGATTTests.clientAgainstServer(inboxes: true, executors: true)
    }
}
