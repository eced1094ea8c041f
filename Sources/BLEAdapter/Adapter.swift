import BLEHost
import BLELogging
import BLEScenarios
import BLETransport
import BLEWire
import BLEWorld
import Foundation
import Synchronization

/// Any BLETransport pipe as the host's ``HostTransport``: the two protocols ask the same.
public struct HCIHostTransport: HostTransport {
    /// The transport underneath.
    public let base: any HCITransport
    /// Wraps `base`.
    public init(base: any HCITransport) { self.base = base }
    public var packets: AsyncThrowingStream<H4.Packet, any Error> { base.packets }
    public func send(_ packet: H4.Packet) async throws { try await base.send(packet) }
    public func close() async { await base.close() }
}

/// A btsnoop file (datalink 1002, HCI UART; Wireshark and `btmon -r` read it) of every
/// packet through a host, written as the packets pass (DESIGN.md, "Observability").
public final class SnoopFile: Sendable {
    private struct State {
        var file: FileHandle
        var writer = BTSnoop.Writer()
        var failed = false
    }

    private let state: Mutex<State>
    /// Unix time of the host's time zero, in microseconds.
    private let origin: Int64

    /// Creates (or truncates) the file at `path` and writes the btsnoop header on the first packet.
    /// - Throws: ``AdapterError`` when the file cannot be created.
    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw AdapterError("Cannot create the capture file \(path); check that its directory exists and is writable.")
        }
        state = Mutex(State(file: file))
        origin = Int64(Date().timeIntervalSince1970 * 1_000_000)
    }

    /// Appends one packet; a packet that cannot be framed is skipped.
    public func write(_ record: HostPacketRecord) {
        state.withLock { state in
            guard !state.failed,
                  let bytes = try? state.writer.bytes(forH4Packet: record.packet.encoded(), direction: record.outgoing ? .sent : .received,
                                                      unixMicroseconds: origin + record.time) else { return }
            do {
                try state.file.write(contentsOf: bytes)
            } catch {
                state.failed = true
            }
        }
    }

    /// Closes the file; later writes are ignored.
    public func close() {
        state.withLock { state in
            state.failed = true
            try? state.file.close()
        }
    }
}

/// A ``Host`` on the controller an `--hci` spec names, with whatever keeps that controller
/// running (an embedded world and its runner): the one place that reaches across the HCI
/// seam (DESIGN.md, "Layers": adapter).
public final class Adapter: Sendable {
    /// The host, not yet started: call ``Host/start()``.
    public let host: BLEHost.Host
    /// The public address the embedded world gave the host's device, if it is simulated.
    public let simulatedAddress: BluetoothAddress?
    /// The embedded world's runner, if the controller is simulated in-process.
    public let runner: WorldRunner?
    /// The clock of the host and of everything built on it: the embedded world's
    /// simulation's, or the wall clock for a real controller.
    public var clock: any StackClock { host.clock }
    /// The embedded world's simulation (its thread and virtual time), if simulated.
    public var simulation: Simulation? { runner?.simulation }
    /// The embedded world's GATT devices (scenario devices with `gatt:`), each with the pipe
    /// to its controller and nothing running on it: the caller starts a host per port
    /// (`BLEProfiles.ProfilePeripheral`) and stops it before or with ``close()``
    /// (``whenClosing(_:)``). Empty for a real controller.
    public let simulatedPeripherals: [SimulatedPeripheralPort]
    /// Where the host stands in an embedded world: the scenario and its device the host
    /// drives, with that device's phone actions. `nil` for a real controller.
    public let place: ScenarioPlace?
    private let tasks: [Task<Void, Never>]
    private let snoop: SnoopFile?
    private let closers = Mutex<[@Sendable () async -> Void]>([])

    init(host: BLEHost.Host, simulatedAddress: BluetoothAddress?, runner: WorldRunner?,
         simulatedPeripherals: [SimulatedPeripheralPort] = [], place: ScenarioPlace? = nil, tasks: [Task<Void, Never>],
         snoop: SnoopFile?) {
        self.host = host
        self.place = place
        self.simulatedAddress = simulatedAddress
        self.runner = runner
        self.simulatedPeripherals = simulatedPeripherals
        self.tasks = tasks
        self.snoop = snoop
    }

    /// Adds work for ``close()`` to do first, in the order added, e.g. stopping the hosts
    /// started on ``simulatedPeripherals`` while their world still runs.
    public func whenClosing(_ action: @escaping @Sendable () async -> Void) {
        closers.withLock { $0.append(action) }
    }

    /// Runs the ``whenClosing(_:)`` work, closes the host, stops the world and finishes the
    /// capture.
    public func close() async {
        let actions = closers.withLock { actions in
            defer { actions = [] }
            return actions
        }
        for action in actions { await action() }
        await host.close()
        await runner?.stop()
        for task in tasks { task.cancel() }
        snoop?.close()
    }
}

extension Adapter {
    /// The command timeout for an embedded world, in microseconds: 30 s. The in-process
    /// controller always answers, but only when the processor gets to it; on a loaded
    /// machine that can take longer than a real controller's 2 s, and a timeout there would
    /// report a healthy controller as gone.
    public static let simulatedCommandTimeout: HostTime = 30_000_000

    /// The environment variable programs read their controller from (same syntax as
    /// `--hci`; DESIGN.md, "The command line").
    public static let environmentVariable = "SWIFTBLE_HCI"

    /// The controller spec to use when none is given: `$SWIFTBLE_HCI`, else `sim`.
    public static var defaultSpec: String {
        let value = ProcessInfo.processInfo.environment[environmentVariable] ?? ""
        return value.isEmpty ? "sim" : value
    }

    /// Turns an `--hci` spec into a host on that controller (DESIGN.md, "The command
    /// line"): `sim` and `sim:FILE.yaml` build an embedded world on a ``Simulation`` (paced
    /// to the wall clock at `speed`) and attach the host, on the simulation's clock, to its
    /// first `host: external` device; `tcp:`, `unix:`,
    /// `serial:` and `hci:` open the device.
    /// - Parameters:
    ///   - hci: the spec; `nil` reads ``defaultSpec``.
    ///   - seed: overrides the scenario's seed for simulated worlds.
    ///   - snoopPath: a btsnoop file to capture every HCI packet into.
    ///   - onLog: the world's log lines (scripted devices), if simulated.
    ///   - configuration: the host's driver configuration, e.g. a longer command timeout
    ///     for a slow serial line. By default a real controller gets the driver's 2 s per
    ///     command and an embedded world ``simulatedCommandTimeout``.
    ///   - att: the host's ATT bearers (receive MTU, default 517; Core 5.4, Vol 3, Part F,
    ///     §3.2.8), e.g. 23 for a client that must not exchange a larger MTU.
    ///   - parameterUpdates: how the host answers a peripheral's connection parameter
    ///     requests (``ConnectionParameterUpdatePolicy``); by default it accepts valid ones.
    ///   - speed: for an embedded world, simulated seconds per wall-clock second: 1 (the
    ///     default) paces the world's virtual clock to real time, as a program talking to
    ///     people or other processes needs; `.infinity` runs the world, the host and every
    ///     task started on the adapter's ``simulation`` as fast as the processor allows.
    ///     Called on a simulation's thread (``Simulation/current``), the world joins that
    ///     simulation and `speed` is the simulation's.
    /// - Throws: ``AdapterError`` with one sentence saying what to do.
    public static func open(
        hci: String? = nil, seed: UInt64? = nil, snoopPath: String? = nil, onLog: (@Sendable (String) -> Void)? = nil,
        configuration explicit: HCIDriverConfiguration? = nil, att: ATTBearerConfiguration = .init(),
        parameterUpdates: ConnectionParameterUpdatePolicy = .acceptValid, speed: Double = 1
    ) async throws -> Adapter {
        let hci = hci ?? defaultSpec
        let configuration: HCIDriverConfiguration
        if let explicit {
            configuration = explicit
        } else if hci == "sim" || hci.hasPrefix("sim:") {
            configuration = HCIDriverConfiguration(commandTimeout: simulatedCommandTimeout)
        } else {
            configuration = HCIDriverConfiguration()
        }
        let spec: HCITransportSpec
        do {
            spec = try HCITransportSpec(parsing: hci)
        } catch {
            // The transport's error already lists the forms accepted.
            throw AdapterError("--hci \(hci) is not a controller: \(error).")
        }
        adapterLog.info("opening \(hci)")
        let snoop = try snoopPath.map(SnoopFile.init(path:))
        var onPacket: (@Sendable (HostPacketRecord) -> Void)?
        if let snoop { onPacket = { record in snoop.write(record) } }
        switch spec {
        case .simulated:
            return try openWorld(try scenario(named: "neighbourhood"), seed: seed, snoop: snoop, onPacket: onPacket, onLog: onLog,
                                 configuration: configuration, att: att, parameterUpdates: parameterUpdates, speed: speed)
        case let .simulatedScenario(path):
            return try openWorld(try scenario(named: path), seed: seed, snoop: snoop, onPacket: onPacket, onLog: onLog,
                                 configuration: configuration, att: att, parameterUpdates: parameterUpdates, speed: speed,
                                 watcher: ScenarioFileWatch.watcher(of: path))
        case .tcp, .unix, .serial, .userChannel:
            let transport: any HCITransport
            do {
                transport = try await spec.open()
            } catch {
                snoop?.close()
                // Thrown to the caller, who reports it (ble prints it once as its error);
                // logged at debug only, so that it is not said twice.
                adapterLog.debug("\(error)")
                throw AdapterError("\(error)")  // TransportError already names the spec: "could not connect to tcp:…"
            }
            let host = BLEHost.Host(transport: HCIHostTransport(base: transport), configuration: configuration, parameterUpdates: parameterUpdates, att: att,
                                    onPacket: onPacket, logLabel: hci)
            return Adapter(host: host, simulatedAddress: nil, runner: nil, tasks: [], snoop: snoop)
        }
    }

    /// Opens an embedded world of `scenario` (already loaded, its seed as it should be) and
    /// attaches the host to its first `host: external` device, as `--hci sim:FILE.yaml` does.
    /// Called on a simulation's thread, the world joins that simulation. `watcher` sees the
    /// world before it runs, as a ``ScenarioFileWatch`` watcher does for a file (a test's
    /// place to compare what a program was told with the world's truth).
    /// - Throws: ``AdapterError`` with one sentence saying what to do.
    public static func open(
        scenario: Scenario, snoopPath: String? = nil, onLog: (@Sendable (String) -> Void)? = nil,
        att: ATTBearerConfiguration = .init(), parameterUpdates: ConnectionParameterUpdatePolicy = .acceptValid, speed: Double = 1,
        watcher: ScenarioFileWatch.Watcher? = nil
    ) throws -> Adapter {
        let snoop = try snoopPath.map(SnoopFile.init(path:))
        var onPacket: (@Sendable (HostPacketRecord) -> Void)?
        if let snoop { onPacket = { record in snoop.write(record) } }
        return try openWorld(scenario, seed: nil, snoop: snoop, onPacket: onPacket, onLog: onLog,
                             configuration: HCIDriverConfiguration(commandTimeout: simulatedCommandTimeout), att: att,
                             parameterUpdates: parameterUpdates, speed: speed, watcher: watcher)
    }

    private static func openWorld(
        _ loaded: Scenario, seed: UInt64?, snoop: SnoopFile?, onPacket: (@Sendable (HostPacketRecord) -> Void)?,
        onLog: (@Sendable (String) -> Void)?, configuration: HCIDriverConfiguration, att: ATTBearerConfiguration,
        parameterUpdates: ConnectionParameterUpdatePolicy, speed: Double, watcher: ScenarioFileWatch.Watcher? = nil
    ) throws -> Adapter {
        var scenario = loaded
        if let seed { scenario.seed = seed }
        if !scenario.devices.contains(where: { $0.host == .external }) { scenario = scenario.addingExternalDevices(1) }
        // Opened from inside a simulation (a simulated test, an app on `sim`), the world joins
        // it; otherwise it gets a simulation of its own at `speed`.
        let joined = Simulation.current
        let simulation: Simulation
        do {
            simulation = try joined ?? Simulation(speed: speed, name: "ble-world")
        } catch {
            throw AdapterError("The embedded world could not start: \(error).")
        }
        let simulated: SimulatedWorld
        do {
            simulated = try SimulatedWorld.build(scenario, on: simulation, endingSimulation: joined == nil,
                                                 attachingHost: true) { built, world in
                if let onLog { built.onLog = { onLog($0) } }
                if let watcher, let device = built.externalDevices.first { watcher(built, world, device) }
            }
        } catch {
            if joined == nil { simulation.shutdown() }
            throw error
        }
        guard let hostTransport = simulated.hostTransport, let address = simulated.hostAddress else {
            if joined == nil { simulation.shutdown() }
            throw AdapterError("The scenario has no device for the host.")
        }
        let runner = simulated.runner
        let run = Task(executorPreference: simulation) { _ = await runner.run() }
        let host = BLEHost.Host(transport: hostTransport, configuration: configuration, parameterUpdates: parameterUpdates, att: att,
                                onPacket: onPacket, clock: runner.clock, pairingSeed: simulated.hostPairingSeed, logLabel: "sim")
        let place = simulated.hostDeviceName.map { name in
            ScenarioPlace(scenario: scenario, deviceName: name, phoneActions: simulated.phoneActions ?? AsyncStream { $0.finish() },
                          accessories: simulated.accessories, displays: simulated.peripherals.map(\.display))
        }
        return Adapter(host: host, simulatedAddress: address, runner: runner, simulatedPeripherals: simulated.peripherals,
                       place: place, tasks: [run] + simulated.feeds, snoop: snoop)
    }

    /// The scenarios ``scenario(named:)`` knows by name: the built-in worlds (`neighbourhood`,
    /// `empty`), then the bundled ones (`walk`, `bus-stop`, …; ``BLEScenarios/BundledScenarios``).
    public static var scenarioNames: [String] { Scenario.builtInNames + BundledScenarios.names }

    /// A scenario named on the command line (`ble sim run NAME`, `--hci sim:NAME`): a
    /// built-in name (`neighbourhood`, `empty`), a bundled scenario's name (`walk`) or a path
    /// to a YAML file.
    /// - Throws: ``AdapterError`` naming every scenario known by name, or the scenario's own error.
    public static func scenario(named argument: String) throws -> Scenario {
        do {
            if Scenario.builtInNames.contains(argument) || argument == "neighborhood" {
                return try Scenario.builtIn(named: argument)
            }
            if BundledScenarios.names.contains(argument) {
                return try BundledScenarios.scenario(named: argument)
            }
            if let problem = scenarioProblem(argument) { throw AdapterError(problem) }
            return try ScenarioLoader.load(path: argument)
        } catch let error as ScenarioError {
            throw AdapterError("\(error.description.hasSuffix(".") ? error.description : error.description + ".")")
        }
    }

    /// Why `argument` names no scenario — neither a name in ``scenarioNames`` nor an existing
    /// file — as one sentence listing what is accepted; `nil` when it names one. A command
    /// checks this with its other arguments, before it opens anything.
    public static func scenarioProblem(_ argument: String) -> String? {
        guard !scenarioNames.contains(argument), argument != "neighborhood", !FileManager.default.fileExists(atPath: argument) else {
            return nil
        }
        return "No scenario \"\(argument)\": give a path to a .yaml file or one of " + scenarioNames.joined(separator: ", ") + "."
    }
}

/// Why an adapter could not be opened: one sentence that says what to do.
public struct AdapterError: Error, CustomStringConvertible, Sendable {
    /// The sentence.
    public var description: String
    /// An error with that sentence.
    public init(_ description: String) { self.description = description }
}

/// The adapter's logger (`ble.adapter`): which controller is opened, and why one cannot be.
let adapterLog = BLELog.logger("adapter")
