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
}
