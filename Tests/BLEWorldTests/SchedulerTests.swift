import BLEController
import BLEWire
import BLEWorld
import Testing

@Suite("World scheduler")
struct SchedulerTests {
    @Test("Events run in time order, and ties in the order they were scheduled")
    func ordering() {
        let world = World(configuration: WorldConfiguration(seed: 7))
        var log: [String] = []
        world.schedule(at: 300) { _ in log.append("c") }
        world.schedule(at: 100) { _ in log.append("a1") }
        world.schedule(at: 200) { world in
            log.append("b@\(world.now)")
            world.schedule(at: 100) { world in log.append("late@\(world.now)") }
        }
        world.schedule(at: 100) { _ in log.append("a2") }
        var heap: [Int] = []
        for time in [905, 3, 77, 512, 3, 1000, 42, 600, 8, 77] {
            world.schedule(at: 1000 + Microseconds(time)) { world in heap.append(Int(world.now) - 1000) }
        }
        #expect(world.nextEventTime == 100)
        world.run(until: 250)
        #expect(world.now == 250)
        #expect(log == ["a1", "a2", "b@200", "late@200"])
        world.run(until: 5000)
        #expect(log.last == "c")
        #expect(heap == [3, 3, 8, 42, 77, 77, 512, 600, 905, 1000])
        #expect(world.nextEventTime == nil)
        #expect(!world.runNextEvent())
    }

    @Test("Events booked for the instant under way run after those already due then, in booking order", arguments: [1, 2, 3] as [UInt64])
    func bookedForNow(seed: UInt64) {
        let world = World(configuration: WorldConfiguration(seed: seed))
        var random = WorldRandom(seed: seed)
        // Each event is named by the order it was booked in; the queue must run them by
        // (time, booking), whether booked ahead or for the instant it is processing.
        var booked: [(time: Microseconds, order: Int)] = []
        var ran: [Int] = []
        func book(at time: Microseconds) {
            let order = booked.count
            booked.append((Swift.max(time, world.now), order))
            world.schedule(at: time) { world in
                ran.append(order)
                guard booked.count < 3_000 else { return }
                for _ in 0 ..< Int(random.next() % 3) {
                    let draw = random.next() % 4
                    book(at: draw == 0 ? world.now + Microseconds(random.next() % 50) : world.now)
                }
            }
        }
        for _ in 0 ..< 20 { book(at: Microseconds(random.next() % 100)) }
        world.run(until: 1_000_000)
        let expected = booked.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.order)
        #expect(ran.count == booked.count)
        #expect(ran == expected)
        #expect(booked.count > 500)
    }

    @Test("HCI packets from the host reach the controller in order and answers come back at the same time")
    func hostPackets() throws {
        let world = World(configuration: WorldConfiguration(seed: 7))
        let device = world.addDevice(DeviceDescription(name: "d", position: .zero), controller: TestListener())
        let log = HostLog(world: world)
        world.run(until: 1000)
        world.sendToController(.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x0C03))), device: device)
        world.sendToController(.command(HCI.CommandPacket(opcode: HCI.Opcode(rawValue: 0x1009))), device: device)
        world.run(until: 1000)
        let opcodes = log.otherEvents.compactMap { entry -> UInt8? in
            guard case let .event(event) = entry.1 else { return nil }
            return event.parameters.dropFirst().first
        }
        #expect(opcodes == [0x03, 0x09])
        #expect(world.statistics[device].hciToController == 2)
        #expect(world.statistics[device].hciToHost == 2)
    }
}
