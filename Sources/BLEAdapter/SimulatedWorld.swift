import BLEController
import BLEHost
import BLETransport
import BLEWire
import BLEWorld

/// A scenario's world on a ``Simulation``, wired for real hosts: the ``WorldRunner`` that
/// runs it, a ``SimulatedPeripheralPort`` per GATT device (a scenario device with `gatt:`)
/// and, if asked for, a pipe for a host on the first `host: external` device.
///
/// ``Adapter/open(hci:seed:snoopPath:onLog:configuration:att:speed:)`` builds one for
/// `--hci sim`, and `ble sim run` builds one on a simulation of its own to run the GATT
/// devices' hosts headless: both get the same wiring, so a GATT device behaves the same in
/// either. Nothing runs the world yet: the caller starts ``runner``'s
/// ``WorldRunner/run(until:)`` and a host per port (`BLEProfiles.ProfilePeripheral`).
public struct SimulatedWorld: Sendable {
    /// The world's runner, on the simulation it was built on.
    public let runner: WorldRunner
    /// Each scenario device's identifier, in scenario order.
    public let deviceIDs: [DeviceID]
    /// The GATT devices, in scenario order, each with the pipe to its controller and nothing
    /// running on it.
    public let peripherals: [SimulatedPeripheralPort]
    /// The host end of the pipe to the first `host: external` device's controller, when the
    /// world was built with `attachingHost`.
    public let hostTransport: (any HostTransport)?
    /// The device that pipe reaches.
    public let hostDevice: DeviceID?
    /// That device's public address (its own, or one derived from its place in the scenario).
    public let hostAddress: BluetoothAddress?
    /// The seed of the pairing random values of the host on ``hostTransport``.
    public let hostPairingSeed: UInt64?
    /// The scenario device that pipe reaches, by name.
    public let hostDeviceName: String?
    /// The phone actions (`app`, `bluetooth`, `screen`) naming that device, each when the
    /// world's clock reaches its time; kept until read, so a phone that starts late misses
    /// none. `nil` without ``hostTransport``.
    public let phoneActions: AsyncStream<ScenarioAction>?
    /// The `host: external` devices with an accessory `program:`, each with the pipe to its
    /// controller and nothing running on it (made with ``hostTransport``).
    public let accessories: [AccessoryPort]
    /// The tasks that carry host packets from the pipes into the world; each ends when its
    /// pipe closes.
    public let feeds: [Task<Void, Never>]

    /// The configuration of the hosts the embedded world runs for its GATT devices and
    /// accessories: patient. Its controllers claim the extended family, so these hosts
    /// advertise, scan and connect with it, as a host on a Bluetooth 5 controller does.
    static let hostConfiguration = HCIDriverConfiguration(commandTimeout: Adapter.simulatedCommandTimeout)

    /// Builds `scenario` into a new world on `simulation` with its GATT devices attached
    /// (``ScenarioGATTHosting/attached``) and wires every pipe through a new runner.
    /// - Parameters:
    ///   - scenario: the scenario, seed included.
    ///   - simulation: the simulation whose thread and clock the world, its runner and the
    ///     hosts on its pipes share.
    ///   - endingSimulation: whether the runner's ``WorldRunner/stop()`` also shuts
    ///     `simulation` down.
    ///   - attachingHost: whether to make ``hostTransport`` for the first `host: external`
    ///     device (the scenario must have one); otherwise packets for external devices go
    ///     nowhere.
    ///   - prepare: sees the built scenario and its world before the runner takes them:
    ///     the place to install ``BuiltScenario/onHostPacket`` and ``BuiltScenario/onLog``,
    ///     which then run on the simulation's thread.
    /// - Throws: ``AdapterError`` with the scenario's error, or when `attachingHost` finds
    ///   no external device.
    public static func build(
        _ scenario: Scenario, on simulation: Simulation, endingSimulation: Bool = false, attachingHost: Bool = false,
        prepare: sending (BuiltScenario, World) -> Void = { _, _ in }
    ) throws(AdapterError) -> SimulatedWorld {
        let world = World(configuration: scenario.worldConfiguration)
        let built: BuiltScenario
        do {
            // The world's controllers claim extended advertising and scanning (Bluetooth 5) here,
            // where only our own hosts drive them; `ble sim serve` does not, for the Linux
            // kernel picks extended scanning from those bits alone (docs/extended-advertising.md).
            built = try scenario.build(into: world, gattHosting: .attached) { configuration in
                var configuration = configuration
                configuration.claimsExtendedAdvertising = true
                return Controller(configuration: configuration)
            }
        } catch {
            throw AdapterError(error.description)
        }
        // Each host's pairing draws from the world's seed and its device's place in the scenario.
        let seedBase = scenario.seed &* 0x9E37_79B9_7F4A_7C15
        var local: (id: DeviceID, address: BluetoothAddress, ends: (InProcessTransport, InProcessTransport.ControllerEnd))?
        if attachingHost {
            guard let id = built.externalDevices.first, let index = built.deviceIDs.firstIndex(of: id) else {
                throw AdapterError("The scenario has no device for the host.")
            }
            local = (id, scenario.controllerPublicAddress(index: index), InProcessTransport.makePair())
        }
        // Each GATT device gets a pipe of its own, wired like the local host's.
        var peripherals: [SimulatedPeripheralPort] = []
        var peripheralEnds: [(DeviceID, InProcessTransport.ControllerEnd)] = []
        for id in built.attachedGATTDevices {
            guard let device = built.device(id) else { continue }
            let made: (port: SimulatedPeripheralPort, controllerEnd: InProcessTransport.ControllerEnd)?
            do {
                made = try SimulatedPeripheralPort.make(
                    device: device, configuration: SimulatedWorld.hostConfiguration,
                    clock: simulation.clock, pairingSeed: seedBase &+ UInt64(id.rawValue) &+ 1)
            } catch {
                throw AdapterError(error.description)
            }
            guard let made else { continue }
            peripherals.append(made.port)
            peripheralEnds.append((id, made.controllerEnd))
        }
        var accessories: [AccessoryPort] = []
        if let local {
            for id in built.externalDevices where id != local.id {
                guard let device = built.device(id), let program = device.program else { continue }
                let (hostEnd, controllerEnd) = InProcessTransport.makePair()
                accessories.append(AccessoryPort(
                    name: device.name, program: program, transport: HCIHostTransport(base: hostEnd),
                    configuration: SimulatedWorld.hostConfiguration, clock: simulation.clock,
                    pairingSeed: seedBase &+ UInt64(id.rawValue) &+ 1))
                peripheralEnds.append((id, controllerEnd))
            }
        }
        let ends = Dictionary(peripheralEnds) { first, _ in first }
        let localDevice = local?.id, localEnd = local?.ends.1
        built.onExternalHostPacket = { device, packet in
            if device == localDevice {
                localEnd?.send(packet)
            } else {
                ends[device]?.send(packet)
            }
        }
        let deviceIDs = built.deviceIDs
        let hostDeviceName = localDevice.flatMap { built.name(of: $0) }
        var phoneActions: AsyncStream<ScenarioAction>?
        if let hostDeviceName {
            let (stream, continuation) = AsyncStream<ScenarioAction>.makeStream()
            phoneActions = stream
            built.onPhoneAction = { action in
                if action.deviceNames.contains(hostDeviceName) { continuation.yield(action) }
            }
        }
        prepare(built, world)
        let runner = WorldRunner(world: world, simulation: simulation, endingSimulation: endingSimulation)
        var feeds: [Task<Void, Never>] = []
        for (id, end) in peripheralEnds {
            feeds.append(Task(executorPreference: simulation) {
                for await packet in end.packets { runner.submit(packet, to: id) }
            })
        }
        if let localDevice, let localEnd {
            feeds.append(Task(executorPreference: simulation) {
                for await packet in localEnd.packets { runner.submit(packet, to: localDevice) }
            })
        }
        return SimulatedWorld(
            runner: runner, deviceIDs: deviceIDs, peripherals: peripherals,
            hostTransport: local.map { HCIHostTransport(base: $0.ends.0) }, hostDevice: localDevice, hostAddress: local?.address,
            hostPairingSeed: localDevice.map { seedBase &+ UInt64($0.rawValue) &+ 1 }, hostDeviceName: hostDeviceName,
            phoneActions: phoneActions, accessories: accessories, feeds: feeds)
    }
}

/// An accessory of an embedded world (a `host: external` device with `program:`), ready for
/// the host that runs its program: the pipe to its controller and how a host on it keeps time.
public struct AccessoryPort: Sendable {
    /// The scenario device's name.
    public let name: String
    /// The program its host runs, by name (e.g. `notification-light`).
    public let program: String
    /// The HCI pipe to the device's controller.
    public let transport: any HostTransport
    /// The driver configuration for a host on this port (the embedded world's patient timeout).
    public let configuration: HCIDriverConfiguration
    /// The clock a host on this port keeps time by: the world's simulation's.
    public let clock: any StackClock
    /// The seed of the pairing random values of a host on this port, so a run repeats.
    public let pairingSeed: UInt64
}
