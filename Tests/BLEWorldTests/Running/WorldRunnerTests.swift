import BLEController
import BLEWire
import BLEWorld
import Synchronization
import Testing

/// Packets seen by a world's hosts, collected across isolation domains.
final class PacketLog: Sendable {
    private let entries = Mutex<[(Microseconds, DeviceID, H4.Packet)]>([])
    func append(_ time: Microseconds, _ device: DeviceID, _ packet: H4.Packet) { entries.withLock { $0.append((time, device, packet)) } }
    var all: [(Microseconds, DeviceID, H4.Packet)] { entries.withLock { $0 } }
}

@Suite("World runner")
struct WorldRunnerTests {
    /// A world of one answering device, a log of its host packets, and a scripted action
    /// that sends a Reset every 100 ms of simulated time.
    private func makeWorld(log: PacketLog) -> (World, DeviceID) {
        let world = World(configuration: WorldConfiguration(seed: 5, timing: .ideal))
        let device = world.addDevice(DeviceDescription(name: "d", position: Vector3(x: 0, y: 0, z: 0)),
                                     controller: AnsweringController())
        world.onHostPacket = { [unowned world] id, packet in log.append(world.now, id, packet) }
        for step in 1 ... 10 {
            world.schedule(at: Microseconds(step) * 100_000) { world in
                if let reset = try? HCI.CommandPacket(HCI.Reset()) { world.sendToController(.command(reset), device: device) }
            }
        }
        return (world, device)
    }

    @Test("As fast as possible it runs every event up to the limit, and twice gives the same output")
    func fastAndDeterministic() async throws {
        var runs: [[Microseconds]] = []
        for _ in 0 ..< 2 {
            let log = PacketLog()
            let (world, _) = makeWorld(log: log)
            let runner = try WorldRunner(world: world, speed: .infinity)
            let reached = await runner.run(until: 2_000_000)
            #expect(reached == 2_000_000)
            runs.append(log.all.map(\.0))
        }
        #expect(runs[0] == (1 ... 10).map { Microseconds($0) * 100_000 })
        #expect(runs[0] == runs[1])
    }

    @Test("At a finite speed it paces the world to the wall clock")
    func paced() async throws {
        let log = PacketLog()
        let (world, _) = makeWorld(log: log)
        let runner = try WorldRunner(world: world, speed: 20)
        let clock = ContinuousClock()
        let start = clock.now
        await runner.run(until: 1_000_000)
        let elapsed = clock.now - start
        // One simulated second at 20× takes at least 50 ms of wall time: the runner never gets
        // ahead of the clock. (No upper bound: on a loaded machine it may fall behind.)
        #expect(elapsed >= .milliseconds(45))
        #expect(log.all.count == 10)
        #expect(await runner.now == 1_000_000)
    }

    @Test("Submitted packets reach the controller while the runner waits", .timeLimit(.minutes(1)))
    func submissions() async throws {
        let log = PacketLog()
        let world = World(configuration: WorldConfiguration(seed: 1, timing: .ideal))
        let device = world.addDevice(DeviceDescription(name: "d", position: Vector3(x: 0, y: 0, z: 0)),
                                     controller: AnsweringController())
        // The answer is awaited as an event, not polled against a deadline.
        let (answers, answered) = AsyncStream<Void>.makeStream()
        world.onHostPacket = { [unowned world] id, packet in
            log.append(world.now, id, packet)
            answered.yield()
        }
        let runner = try WorldRunner(world: world, speed: 1)
        let task = Task(executorPreference: runner.simulation) { _ = await runner.run() }
        let reset = try HCI.CommandPacket(HCI.Reset())
        runner.submit(.command(reset), to: device)
        var iterator = answers.makeAsyncIterator()
        _ = await iterator.next()
        await runner.stop()
        await task.value
        #expect(log.all.count == 1)
        #expect(log.all.first?.1 == device)
    }

    @Test("A runner that falls behind its speed still lets submitted packets in", .timeLimit(.minutes(1)))
    func submissionsWhileBehind() async throws {
        let log = PacketLog()
        let world = World(configuration: WorldConfiguration(seed: 1, timing: .ideal))
        let device = world.addDevice(DeviceDescription(name: "d", position: Vector3(x: 0, y: 0, z: 0)),
                                     controller: AnsweringController())
        // An event every simulated microsecond at a billion times real time: no processor
        // keeps up, so the runner is behind its clock for the whole test.
        func tick(_ world: World) { world.schedule(at: world.now + 1) { tick($0) } }
        tick(world)
        let (answers, answered) = AsyncStream<Void>.makeStream()
        world.onHostPacket = { [unowned world] id, packet in
            log.append(world.now, id, packet)
            answered.yield()
        }
        let runner = try WorldRunner(world: world, speed: 1e9)
        let task = Task(executorPreference: runner.simulation) { _ = await runner.run() }
        runner.submit(.command(try HCI.CommandPacket(HCI.Reset())), to: device)
        var iterator = answers.makeAsyncIterator()
        _ = await iterator.next()
        await runner.stop()
        await task.value
        #expect(log.all.count == 1)
        #expect(log.all.first?.1 == device)
    }

    @Test("A runner behind its speed answers each packet without first working off its backlog", .timeLimit(.minutes(1)))
    func submissionsSkipBacklog() async throws {
        let world = World(configuration: WorldConfiguration(seed: 1, timing: .ideal))
        let device = world.addDevice(DeviceDescription(name: "d", position: Vector3(x: 0, y: 0, z: 0)),
                                     controller: AnsweringController())
        // As above, an event every simulated microsecond at a billion times real time, counted.
        let ticks = TickCount()
        func tick(_ world: World) {
            ticks.add()
            world.schedule(at: world.now + 1) { tick($0) }
        }
        tick(world)
        let (answers, answered) = AsyncStream<Int>.makeStream()
        world.onHostPacket = { _, _ in answered.yield(ticks.value) }
        let runner = try WorldRunner(world: world, speed: 1e9)
        let task = Task(executorPreference: runner.simulation) { _ = await runner.run() }
        let reset = H4.Packet.command(try HCI.CommandPacket(HCI.Reset()))
        // The round trips run on the simulation's thread, so the machine's load cannot
        // stretch the time between an answer and the next packet.
        let gaps = await Task(executorPreference: runner.simulation) { () -> [Int] in
            var iterator = answers.makeAsyncIterator()
            var previous: Int?
            var gaps: [Int] = []
            for _ in 0 ..< 20 {
                runner.submit(reset, to: device)
                guard let count = await iterator.next() else { break }
                if let previous { gaps.append(count - previous) }
                previous = count
            }
            return gaps
        }.value
        await runner.stop()
        await task.value
        #expect(gaps.count == 19)
        // A round trip is a few of the runner's turns, one event each. Catching the world up
        // to its clock before each packet (4,096 events at a time) would make every gap longer.
        #expect((gaps.min() ?? .max) < 1_000, "events run between answers: \(gaps)")
    }
}

/// Events counted on the world's thread and read from the test's.
final class TickCount: Sendable {
    private let count = Atomic(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
