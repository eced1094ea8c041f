import BLEController
import BLEHost
import BLEWire
import BLEWorld
import SimulatedTesting

/// A ``HostTransport`` straight into one device of a world run by a ``WorldRunner``: what
/// the host sends is submitted to the device's controller, what the controller sends the
/// host comes out of ``packets``, or of ``inbox`` when the world was made with inboxes.
struct WorldDeviceTransport: HostTransport {
    let runner: WorldRunner
    let device: DeviceID
    let packets: AsyncThrowingStream<H4.Packet, any Error>
    let packetInbox: HostPacketInbox?

    var inbox: HostPacketInbox? { packetInbox }

    func close() async {
        packetInbox?.finish()
    }

    func send(_ packet: H4.Packet) async throws {
        runner.submit(packet, to: device)
    }
}

/// A scenario built into a world that runs on the wall clock, with one transport per
/// `host: external` device, in scenario order.
struct RunningWorld {
    let runner: WorldRunner
    let transports: [WorldDeviceTransport]
    /// The public address each external device's controller reports, in the same order.
    let addresses: [BluetoothAddress]
    let task: Task<Void, Never>

    /// - Parameters:
    ///   - inboxes: hand the hosts their packets through ``HostPacketInbox``es (in batches)
    ///     rather than through their transports' streams.
    ///   - capturesHCI: keep every device's HCI traffic in memory as btsnoop (the world's default).
    ///   - claimsExtendedAdvertising: the controllers claim the extended advertising feature and
    ///     commands (``ControllerConfiguration/claimsExtendedAdvertising``).
    init(_ scenario: Scenario, speed: Double = 1, inboxes: Bool = false, capturesHCI: Bool = true,
         claimsExtendedAdvertising: Bool = false) throws {
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio,
                                                            capturesHCI: capturesHCI))
        let built = try scenario.build(into: world) { configuration in
            var configuration = configuration
            configuration.claimsExtendedAdvertising = claimsExtendedAdvertising
            return Controller(configuration: configuration)
        }
        var outputs: [DeviceID: AsyncThrowingStream<H4.Packet, any Error>.Continuation] = [:]
        var streams: [(DeviceID, AsyncThrowingStream<H4.Packet, any Error>)] = []
        var addresses: [BluetoothAddress] = []
        for id in built.externalDevices {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: H4.Packet.self, bufferingPolicy: .unbounded)
            outputs[id] = continuation
            streams.append((id, stream))
            if let index = built.deviceIDs.firstIndex(of: id) { addresses.append(scenario.controllerPublicAddress(index: index)) }
        }
        let sinks = outputs
        let boxes = inboxes ? Dictionary(uniqueKeysWithValues: streams.map { ($0.0, HostPacketInbox()) }) : [:]
        built.onExternalHostPacket = { id, packet in
            if let inbox = boxes[id] { inbox.append(packet) } else { sinks[id]?.yield(packet) }
        }
        // In a `.simulated` test the world joins the test's simulation (hosts made with
        // ``clock`` keep its virtual time); otherwise it paces a simulation of its own.
        let runner: WorldRunner
        if let simulation = Simulation.current {
            runner = WorldRunner(world: world, simulation: simulation)
        } else {
            runner = try WorldRunner(world: world, speed: speed)
        }
        self.runner = runner
        self.addresses = addresses
        transports = streams.map { WorldDeviceTransport(runner: runner, device: $0.0, packets: $0.1, packetInbox: boxes[$0.0]) }
        task = Task(executorPreference: runner.simulation) { await runner.run() }
    }

    /// The clock hosts on this world keep: the test's simulation's, or the wall clock.
    var clock: any StackClock { Simulation.current == nil ? WallClock() : runner.clock }

    func stop() async {
        await runner.stop()
        task.cancel()
    }
}

/// Thrown by ``firstElement(of:within:where:)`` when nothing matched in time.
typealias TimedOut = TestTimedOut

/// The first element of `stream` that satisfies `predicate`, or ``TimedOut`` after
/// `seconds` on the test's clock (simulated seconds in a `.simulated` test).
func firstElement<Element: Sendable>(
    of stream: AsyncStream<Element>, within seconds: Double, where predicate: @escaping @Sendable (Element) -> Bool
) async throws -> Element {
    let clock = testClock
    return try await withThrowingTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream where predicate(element) { return element }
            return nil
        }
        group.addTask {
            try await clock.sleep(seconds: seconds)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let element = first else { throw TimedOut(seconds: seconds) }
        return element
    }
}

/// Waits until `condition` holds, checking it every 10 ms on the test's clock, or throws
/// ``TimedOut`` after `seconds`. For states no event announces (a credit count, say); in a
/// `.simulated` test each check comes after the simulation has settled.
func waitUntil(within seconds: Double, _ condition: @Sendable () async -> Bool) async throws {
    let clock = testClock
    let deadline = clock.microseconds + Int64(seconds * 1e6)
    while clock.microseconds < deadline {
        if await condition() { return }
        try await clock.sleep(for: .milliseconds(10))  // re-check interval, not a wait for an outcome
    }
    throw TimedOut(seconds: seconds)
}
