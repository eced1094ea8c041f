import BLEController
import BLEHost
import BLEWire
import BLEWorld

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

    /// - Parameter inboxes: hand the hosts their packets through ``HostPacketInbox``es
    ///   (in batches) rather than through their transports' streams.
    init(_ scenario: Scenario, speed: Double = 1, inboxes: Bool = false) throws {
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio))
        let built = try scenario.build(into: world)
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
        let runner = WorldRunner(world: world, speed: speed)
        self.runner = runner
        self.addresses = addresses
        transports = streams.map { WorldDeviceTransport(runner: runner, device: $0.0, packets: $0.1, packetInbox: boxes[$0.0]) }
        task = Task { await runner.run() }
    }

    func stop() async {
        await runner.stop()
        task.cancel()
    }
}

/// Thrown by ``firstElement(of:within:where:)`` when nothing matched in time.
struct TimedOut: Error {}

/// The first element of `stream` that satisfies `predicate`, or ``TimedOut`` after
/// `seconds` of wall-clock time.
func firstElement<Element: Sendable>(
    of stream: AsyncStream<Element>, within seconds: Double, where predicate: @escaping @Sendable (Element) -> Bool
) async throws -> Element {
    try await withThrowingTaskGroup(of: Element?.self) { group in
        group.addTask {
            for await element in stream where predicate(element) { return element }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let element = first else { throw TimedOut() }
        return element
    }
}

/// Waits until `condition` holds, checking it every 10 ms of wall-clock time, or throws
/// ``TimedOut`` after `seconds`. For states no event announces (a credit count, say).
func waitUntil(within seconds: Double, _ condition: @Sendable () async -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    while clock.now < deadline {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(10))  // re-check interval, not a wait for an outcome
    }
    throw TimedOut()
}
