import BLE
import BLEController
import BLEHost
import BLEWorld
import SimulatedTesting
import Synchronization

/// The wall-clock seconds a test waits for what should take milliseconds: the whole suite
/// runs in parallel on few cores, and only a failing test ever waits this long.
let patience: Double = 60

/// A transport straight into one device of a world run by a ``WorldRunner``.
struct WorldDeviceTransport: HostTransport {
    let runner: WorldRunner
    let device: DeviceID
    let packets: AsyncThrowingStream<H4.Packet, any Error>

    func send(_ packet: H4.Packet) async throws {
        runner.submit(packet, to: device)
    }
}

/// Several ``BLEDevice``s in one simulated world on the wall clock (an empty world unless
/// a scenario is given), one per `host: external` device, in scenario order.
struct SharedWorld {
    let runner: WorldRunner
    let task: Task<Void, Never>
    let devices: [BLEDevice]
    /// The public address of each device's controller.
    let addresses: [BluetoothAddress]

    /// `count` devices in an empty world; `ideal` timing and a higher `speed` make
    /// connections quick.
    /// `observe` sees every packet to an external device's host, in the world, before the host.
    static func make(devices count: Int, speed: Double = 20, ideal: Bool = true, extended: Bool = false,
                     bonds: (Int) -> BondStorage = { _ in .memory },
                     observe: (@Sendable (DeviceID, H4.Packet, World) -> Void)? = nil) async throws -> SharedWorld {
        var scenario = Scenario(name: "empty").addingExternalDevices(count)
        if ideal { scenario.timing = .ideal }
        return try await make(scenario, speed: speed, extended: extended, bonds: bonds, observe: observe)
    }

    /// One device per `host: external` device of `scenario`, e.g. the neighbourhood's
    /// "local" — what `--hci sim` builds, with a host patient enough for a loaded machine.
    static func make(_ scenario: Scenario, speed: Double = 1, extended: Bool = false, bonds: (Int) -> BondStorage = { _ in .memory },
                     observe: (@Sendable (DeviceID, H4.Packet, World) -> Void)? = nil) async throws -> SharedWorld {
        let world = World(configuration: WorldConfiguration(seed: scenario.seed, timing: scenario.timing, radio: scenario.radio))
        // `extended`: the controllers claim extended and periodic advertising, as `--hci sim`'s do.
        let built = try scenario.build(into: world) { configuration in
            var configuration = configuration
            configuration.claimsExtendedAdvertising = extended
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
        built.onExternalHostPacket = { [unowned world] id, packet in
            observe?(id, packet, world)
            sinks[id]?.yield(packet)
        }
        // In a `.simulated` test the world joins the test's simulation and every host keeps
        // its virtual time; otherwise the world paces a simulation of its own at `speed`.
        let runner: WorldRunner
        if let simulation = Simulation.current {
            runner = WorldRunner(world: world, simulation: simulation)
        } else {
            runner = try WorldRunner(world: world, speed: speed)
        }
        let clock: any StackClock = Simulation.current == nil ? WallClock() : runner.clock
        let task = Task(executorPreference: runner.simulation) { _ = await runner.run() }
        var devices: [BLEDevice] = []
        for (index, (id, stream)) in streams.enumerated() {
            let host = Host(transport: WorldDeviceTransport(runner: runner, device: id, packets: stream),
                            configuration: HCIDriverConfiguration(commandTimeout: 60_000_000), clock: clock,
                            pairingSeed: scenario.seed &+ UInt64(index) &+ 1)
            devices.append(try await BLEDevice.open(host: host, bonds: bonds(devices.count)))
        }
        return SharedWorld(runner: runner, task: task, devices: devices, addresses: addresses)
    }

    func close() async {
        for device in devices { await device.close() }
        await runner.stop()
        task.cancel()
    }
}

/// Thrown by ``within(_:_:)`` when the work did not finish in time.
typealias TimedOut = TestTimedOut

/// The result of `work`, or ``TimedOut`` after `seconds` on the test's clock (simulated
/// seconds in a `.simulated` test). The work is then cancelled but not awaited, so a test
/// fails rather than hangs on a wait that cannot be cancelled (an L2CAP read).
func within<T: Sendable>(_ seconds: Double = patience, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withTimeout(seconds, work)
}

/// The first advertisement of `scan` that satisfies `predicate`, within ``patience``.
func first(of scan: ScanResults, where predicate: @escaping @Sendable (Advertisement) -> Bool) async throws -> Advertisement {
    try await within {
        for await advertisement in scan where predicate(advertisement) { return advertisement }
        throw TimedOut()
    }
}

/// The strap of the neighbourhood scenario.
let strapAddress = BluetoothAddress(0xC4_7A_1B_2C_3D_4E, kind: .random)
