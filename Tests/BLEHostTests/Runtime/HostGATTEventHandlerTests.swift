import BLEHost
import BLEWire
import SimulatedTesting
import Synchronization
import Testing

/// ``Host/handleGATTEvents(with:)``: the delegate-style delivery of GATT events.
@Suite("Host GATT event handler", .simulated, .timeLimit(.minutes(2)))
struct HostGATTEventHandlerTests {
    /// Notified sequence numbers as the handler saw them, and a signal once `count` came.
    final class Seen: Sendable {
        let values = Mutex<[Int]>([])
        let done: AsyncStream<Void>
        private let signal: AsyncStream<Void>.Continuation
        let count: Int

        init(count: Int) {
            self.count = count
            (done, signal) = AsyncStream.makeStream(of: Void.self)
        }

        func record(_ event: HostGATTEvent) {
            guard case let .notification(_, _, value) = event, value.count == 2 else { return }
            let total = values.withLock { values in
                values.append(Int(value[0]) | Int(value[1]) << 8)
                return values.count
            }
            if total == count { signal.yield() }
        }
    }

    @Test("the handler takes every notification, in order, in place of gattEvents; nil hands them back to the stream")
    func handlerTakesNotifications() async throws {
        let hosts = try await ConnectedHosts.make(speed: 20, timing: "ideal", inboxes: true)
        let uuid = BluetoothUUID(0xFF21)
        let database = try await hosts.peripheral.publishGATT([GATTServiceDefinition(uuid: BluetoothUUID(0xFFF2), characteristics: [
            GATTCharacteristicDefinition(uuid: uuid, properties: [.notify], permissions: [], value: .stored([])),
        ])])
        let serverHandle = try #require(database.valueHandle(of: uuid, inService: BluetoothUUID(0xFFF2)))
        let central = hosts.central, link = hosts.centralHandle
        guard case let .characteristics(found) = try await central.gatt(.discoverAllCharacteristics(in: 1 ... 0xFFFF), on: link),
              let characteristic = found.first(where: { $0.uuid == uuid }),
              case let .descriptors(descriptors) = try await central.gatt(.discoverAllDescriptors(of: characteristic), on: link),
              let cccd = descriptors.first(where: \.isClientCharacteristicConfiguration) else { throw TimedOut() }
        _ = try await central.gatt(.configure([.notification], descriptor: cccd.handle), on: link)

        let count = 200
        let seen = Seen(count: count)
        await central.handleGATTEvents(with: { seen.record($0) })
        for index in 0 ..< count {
            try await hosts.peripheral.notify([UInt8(index & 0xFF), UInt8(index >> 8)], valueHandle: serverHandle, on: hosts.peripheralHandle)
        }
        for await _ in seen.done { break }
        #expect(seen.values.withLock { $0 } == Array(0 ..< count))

        await central.handleGATTEvents(with: nil)
        try await hosts.peripheral.notify([0x34, 0x12], valueHandle: serverHandle, on: hosts.peripheralHandle)
        var streamed: [UInt8]?
        for await event in central.gattEvents {
            if case let .notification(_, _, value) = event {
                streamed = value
                break
            }
        }
        #expect(streamed == [0x34, 0x12], "the handled notifications never reached the stream; the one after nil did")
        #expect(seen.values.withLock { $0.count } == count, "the removed handler saw nothing more")
        await hosts.close()
    }
}
