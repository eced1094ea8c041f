import BLEAdapter
import BLELogging
import Foundation
import BLEHost
import BLEProfiles
import BLEWorld

/// A Bluetooth LE controller with SwiftBLE's host running on it: the front door of the
/// stack (DESIGN.md, "Two faces, one engine"). Its two roles work at once on the one
/// controller: ``central`` scans and connects, ``peripheral`` advertises and accepts.
///
/// The controller is whatever `--hci` names elsewhere: by default `$SWIFTBLE_HCI`, else
/// `sim`, an embedded simulated neighbourhood — so a program written against this API runs
/// unchanged on the simulator, a served world, Bumble or a real adapter.
///
/// ```swift
/// import BLE
///
/// let device = try await BLEDevice.open()
/// for await found in try await device.central.scan(filter: ScanFilter(serviceUUIDs: [0x180D])) {
///     let connection = try await device.central.connect(to: found)
///     print("connected to \(found.localName ?? "?") at \(connection.parameters)")
///     let channel = try await connection.openL2CAPChannel(psm: 0x0080)
///     try await channel.send(Array("hello".utf8))
///     try await connection.disconnect()
///     break
/// }
/// await device.close()
/// ```
public final class BLEDevice: Sendable {
    /// The central role: scanning and connecting.
    public let central: Central
    /// The peripheral role: advertising, accepting connections, publishing channels.
    public let peripheral: Peripheral
    /// What start-up learned of the controller: its public address, versions, buffers.
    public let controller: ControllerInfo
    /// Where the device stands in an embedded world (`sim`, `sim:FILE.yaml`): the scenario
    /// and its device this host drives, which a ``SimulatedPhone`` follows. `nil` for a real
    /// controller or a served world.
    public let scenarioPlace: ScenarioPlace?
    let core: DeviceCore
    let dispatcher: EventDispatcher
    private let dispatch: Task<Void, Never>
    private let gattDispatch: Task<Void, Never>
    private let onClose: @Sendable () async -> Void

    private init(core: DeviceCore, controller: ControllerInfo, place: ScenarioPlace?, onClose: @escaping @Sendable () async -> Void) {
        self.core = core
        scenarioPlace = place
        self.controller = controller
        self.onClose = onClose
        let dispatcher = EventDispatcher(core: core)
        self.dispatcher = dispatcher
        central = Central(core: core, dispatcher: dispatcher)
        peripheral = Peripheral(core: core, dispatcher: dispatcher)
        // A link still up when the events end went down with the host: closed by this
        // device, or lost with its transport.
        dispatch = dispatcher.run { core.isClosed ? .connectionTerminatedByLocalHost : .unspecifiedError }
        gattDispatch = core.gatt.run()
    }

    /// The controller's public address, if it has one.
    public var address: BluetoothAddress? { controller.address }

    /// The clock the device keeps time by: its host's (a simulated world's virtual clock, or
    /// the wall clock on a real controller). An app's own timers use it to stay on the same
    /// timeline as the stack (DESIGN.md, "Determinism, one clock").
    public var clock: any StackClock { core.host.clock }

    /// The links up now, in either role, by ascending handle.
    public var connections: [Connection] { dispatcher.connections }

    /// Opens the controller `hci` names and starts the host on it (HCI_Reset and the
    /// start-up sequence, Core 5.4, Vol 4, Part E, §7.3.2 ff.).
    /// - Parameters:
    ///   - hci: `sim`, `sim:FILE.yaml`, `tcp:HOST:PORT`, `unix:PATH`,
    ///     `serial:DEV[@BAUD]` or `hci:N`; `nil` reads `$SWIFTBLE_HCI`, else `sim`.
    ///   - snoop: a btsnoop file to capture every HCI packet into (Wireshark, `btmon -r`).
    ///   - bonds: where the bonds pairing makes are kept (``BondStorage``): by default the
    ///     adapter's store file, the one `ble bonds` lists (docs/bonds.md).
    ///   - commandTimeout: how long the controller may take to answer an HCI command
    ///     before it is considered gone (Vol 4, Part E, §4.4); by default 2 s for a real
    ///     controller and `Adapter.simulatedCommandTimeout` for an embedded world. A slow
    ///     serial line may need more.
    ///   - profile: the host's habits that differ between systems: its ATT MTU and its
    ///     answer to connection parameter requests (``HostProfile/iPhone`` for Apple's).
    /// - Throws: ``BLEError/controllerUnavailable(_:)`` with a sentence saying what to do;
    ///   ``BLEError/bondStoreUnavailable(_:)`` when the bond store file cannot be read.
    public static func open(
        hci: String? = nil, snoop: String? = nil, bonds: BondStorage = .default, commandTimeout: Duration? = nil,
        profile: HostProfile = .standard
    ) async throws(BLEError) -> BLEDevice {
        var configuration: HCIDriverConfiguration?
        if let commandTimeout {
            let timeout = ConnectionParameters.microseconds(commandTimeout)
            guard timeout > 0 else { throw .invalidParameters("the command timeout must be positive") }
            configuration = HCIDriverConfiguration(commandTimeout: timeout)
        }
        let spec = hci ?? ProcessInfo.processInfo.environment["SWIFTBLE_HCI"] ?? "sim"
        let adapter: Adapter
        do {
            adapter = try await Adapter.open(hci: hci, snoopPath: snoop, configuration: configuration,
                                             att: ATTBearerConfiguration(receiveMTU: profile.attMTU), parameterUpdates: profile.parameterUpdates)
            try await adapter.startSimulatedPeripherals()
        } catch {
            throw BLEError(error, closed: false)
        }
        return try await start(host: adapter.host, bonds: bonds, hci: spec, place: adapter.place) { await adapter.close() }
    }

    /// Opens an embedded world of `scenario`, loaded and seeded by the caller, with the host
    /// on its first `host: external` device and its GATT devices served, as
    /// `open(hci: "sim:FILE.yaml")` does for a file. Called inside a simulation (a simulated
    /// test, `ble sim run`), the world joins it and keeps its virtual time; otherwise it runs
    /// at real time. `watcher` sees the world as it is built, before it runs
    /// (``BLEAdapter/ScenarioFileWatch/Watcher``): where a test reads the world's truth.
    /// - Throws: ``BLEError/controllerUnavailable(_:)`` with the scenario's problem.
    public static func open(scenario: Scenario, snoop: String? = nil, bonds: BondStorage = .memory,
                            profile: HostProfile = .standard,
                            watcher: ScenarioFileWatch.Watcher? = nil) async throws(BLEError) -> BLEDevice {
        let adapter: Adapter
        do {
            adapter = try Adapter.open(scenario: scenario, snoopPath: snoop, att: ATTBearerConfiguration(receiveMTU: profile.attMTU),
                                       parameterUpdates: profile.parameterUpdates, watcher: watcher)
            try await adapter.startSimulatedPeripherals()
        } catch {
            throw BLEError(error, closed: false)
        }
        return try await start(host: adapter.host, bonds: bonds, hci: "sim", place: adapter.place) { await adapter.close() }
    }

    /// Starts `host`, made by the caller on a transport of its own, and puts the front
    /// door on it. The device takes over the host: its `BLEHost.Host.events` must have no
    /// other reader.
    /// - Parameters:
    ///   - host: a host not yet started.
    ///   - bonds: where the bonds pairing makes are kept (``BondStorage``); the default file
    ///     is named after the controller's public address, else `bonds-host.json`, there being
    ///     no `--hci` spec to name it after.
    ///   - onClose: what ``close()`` does to release the controller; it must close the
    ///     host (`BLEHost.Host.close()`), which is all the default does.
    /// - Throws: ``BLEError/controllerUnavailable(_:)`` when the controller does not start.
    public static func open(
        host: BLEHost.Host, bonds: BondStorage = .memory, onClose: (@Sendable () async -> Void)? = nil
    ) async throws(BLEError) -> BLEDevice {
        try await start(host: host, bonds: bonds, hci: "host", place: nil, onClose: onClose)
    }

    /// Starts `host`, then opens the bonds `storage` names: the default file is named after
    /// the controller's public address, which only start-up learns (else after `hci`).
    private static func start(host: BLEHost.Host, bonds storage: BondStorage, hci: String, place: ScenarioPlace?,
                              onClose: (@Sendable () async -> Void)?) async throws(BLEError) -> BLEDevice {
        let close = onClose ?? { await host.close() }
        let controller: ControllerInfo
        do {
            controller = try await host.start()
        } catch {
            await close()
            let failure = BLEError(error, closed: false)
            deviceLog.error("the controller did not start: \(failure)")
            if case .controllerUnavailable = failure { throw failure }
            throw .controllerUnavailable(failure.description)
        }
        let bonds: DeviceBonds
        do {
            bonds = try await DeviceBonds.open(storage, hci: hci, controller: controller.address)
        } catch {
            await close()
            throw error
        }
        let device = BLEDevice(core: DeviceCore(host: host, bonds: bonds), controller: controller, place: place, onClose: close)
        await device.core.security.install(on: host, dispatcher: device.dispatcher)
        await device.startAddressResolution()
        deviceLog.info("open: \(controller.address.map { "public address \($0)" } ?? "no public address")")
        return device
    }

    /// Ends every connection (with Remote User Terminated Connection, Vol 3, Part C,
    /// §9.3.10), stops the host and releases the controller. Connections then report
    /// `HCI.StatusCode.connectionTerminatedByLocalHost` if they were still up, scans and
    /// queues end, and calls throw ``BLEError/closed``. Closing twice does nothing.
    public func close() async {
        guard core.markClosed() else { return }
        deviceLog.debug("closing with \(dispatcher.connections.count) link(s) up")
        let links = dispatcher.connections
        // A goodbye to each peer, so it need not wait for its supervision timeout; bounded
        // by a timer in case the controller never reports the disconnection (closing the
        // host below then ends the waits that are left).
        await firstToFinish(within: .seconds(2), on: core.host.clock) {
            for link in links { try? await link.disconnect() }
        }
        // The host holds closures that hold this device.
        await core.security.uninstall(from: core.host)
        await onClose()
        await dispatch.value
    }
}

/// The front door's logger (`ble.device`): devices opened and closed.
let deviceLog = BLELog.logger("device")
