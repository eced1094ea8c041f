import BLEController
import BLEWire

/// A scenario placed in a world: which device is which, the scripted hosts driving the
/// advertising devices, and where packets for outside hosts go.
///
/// It installs itself as the world's ``World/onHostPacket``: packets for scripted devices
/// go to their ``ScriptedHost``, packets for `host: external` devices to
/// ``onExternalHostPacket``, and every packet to ``onHostPacket`` as well (logs, `--json`).
/// Like the world, it is single-threaded.
public final class BuiltScenario {
    /// The scenario as built.
    public let scenario: Scenario
    /// Each scenario device's identifier, in scenario order.
    public let deviceIDs: [DeviceID]
    /// Scripted hosts by device.
    public private(set) var hosts: [DeviceID: ScriptedHost] = [:]
    /// Scripted scanners by device.
    public internal(set) var scanners: [DeviceID: ScriptedScanner] = [:]
    /// What each copier (``ScenarioDevice/copying``) kept of its target, once it heard it.
    public internal(set) var captures: [DeviceID: ScenarioCapture] = [:]
    /// The plain beacons running a ``BLEController/BeaconController`` (``ScenarioBeacons/direct``),
    /// with the number of HCI commands their scripted host would send to set them up.
    var plainBeacons: [DeviceID: Int] = [:]
    /// The copiers, by device.
    var copiers: [DeviceID: Copier] = [:]
    /// The scripted hosts of hostile devices (``ScenarioDevice/attack``), by device.
    var attackers: [DeviceID: ScenarioAttacker] = [:]
    /// Commands scripted hosts had refused, in the order they happened.
    public private(set) var failures: [ScriptedHost.Failure] = []
    /// Receives every packet for a `host: external` device.
    public var onExternalHostPacket: ((DeviceID, H4.Packet) -> Void)?
    /// Sees every controller-to-host packet of every device (after it is handled).
    public var onHostPacket: ((DeviceID, H4.Packet) -> Void)?
    /// Sees, instead of ``onHostPacket``, each LE Advertising Report (Core 5.4, Vol 4, Part E,
    /// §7.7.65.2) of a scripted scanning device whose controller hands them over as values (a
    /// scenario built with ``ScenarioReports/values``), at the same moment and in the same
    /// order. Left `nil`, those reports are encoded and go to ``onHostPacket``.
    public var onAdvertisingReport: ((DeviceID, HCI.LEAdvertisingReport) -> Void)?
    /// Receives each app, Bluetooth and screen action of a phone when its time comes (on the
    /// world's thread): the phone's system carries them out, not the radio.
    public var onPhoneAction: ((ScenarioAction) -> Void)?
    /// Receives one line per problem, e.g. a failed HCI command of a scripted host.
    public var onLog: ((String) -> Void)?

    weak var world: World?
    private let names: [DeviceID: String]

    init(scenario: Scenario, world: World, deviceIDs: [DeviceID], gattHosting: ScenarioGATTHosting) {
        self.scenario = scenario
        self.gattHosting = gattHosting
        self.world = world
        self.deviceIDs = deviceIDs
        var names: [DeviceID: String] = [:]
        for (device, id) in zip(scenario.devices, deviceIDs) { names[id] = device.name }
        self.names = names
    }

    /// The identifier of the device called `name`.
    public func id(of name: String) -> DeviceID? {
        scenario.devices.firstIndex { $0.name == name }.map { deviceIDs[$0] }
    }

    /// The scenario description of a device of this scenario.
    public func device(_ id: DeviceID) -> ScenarioDevice? {
        deviceIDs.firstIndex(of: id).map { scenario.devices[$0] }
    }

    /// The name of a device of this scenario.
    public func name(of id: DeviceID) -> String? { names[id] }

    /// The devices whose host attaches from outside, in scenario order.
    public var externalDevices: [DeviceID] {
        zip(scenario.devices, deviceIDs).filter { $0.0.host == .external }.map(\.1)
    }

    /// How the GATT devices are driven in this world.
    public let gattHosting: ScenarioGATTHosting

    /// The ``ScenarioDevice/HostKind/gatt`` devices whose GATT host attaches from outside
    /// (their packets go to ``onExternalHostPacket``), in scenario order; empty when
    /// ``gattHosting`` is ``ScenarioGATTHosting/advertiseOnly``.
    public var attachedGATTDevices: [DeviceID] {
        guard gattHosting == .attached else { return [] }
        return zip(scenario.devices, deviceIDs).filter { $0.0.host == .gatt }.map(\.1)
    }

    /// Turns a scripted device's advertising on or off through its host. A plain beacon
    /// built with ``ScenarioBeacons/direct`` has no host and is not changed: build with
    /// ``ScenarioBeacons/throughHost`` to switch beacons that no scenario action switches.
    public func setAdvertising(_ enabled: Bool, device: DeviceID) {
        guard var host = hosts[device] else { return }
        let packets = host.setAdvertisingEnabled(enabled)
        hosts[device] = host
        send(packets, to: device)
    }

    /// Starts (again) a scripted device's setup from HCI_Reset, e.g. after power returns.
    public func restartHost(of device: DeviceID) {
        if let setupCommands = plainBeacons[device] {
            world?.startBeacon(device, afterSteps: setupCommands)
            return
        }
        if var scanner = scanners[device] {
            let packets = scanner.start()
            scanners[device] = scanner
            send(packets, to: device)
        }
        guard var host = hosts[device] else { return }
        let packets = host.start()
        hosts[device] = host
        send(packets, to: device)
    }

    func install(_ host: ScriptedHost, for device: DeviceID) { hosts[device] = host }

    /// The copy a copier called `name` kept, once it heard its target.
    public func capture(of name: String) -> ScenarioCapture? { id(of: name).flatMap { captures[$0] } }

    /// Gives a rotating Eddystone-EID beacon its next frame at each period boundary of its
    /// counter, from the world's start `worldStart`, for as long as the world runs.
    func scheduleRotation(of device: DeviceID, eid: ScenarioAdvertisingContent.EddystoneEID, after seconds: Int64, worldStart: Microseconds) {
        let next = eid.nextRotation(afterSeconds: seconds)
        world?.schedule(at: worldStart + next * 1_000_000) { [weak self] _ in
            guard let self, var host = self.hosts[device], let content = self.device(device)?.advertising?.data else { return }
            let packets = host.setAdvertisingData(content.payload(isScanResponse: false, elapsedSeconds: next))
            self.hosts[device] = host
            self.send(packets, to: device)
            self.scheduleRotation(of: device, eid: eid, after: next, worldStart: worldStart)
        }
    }

    func install(_ scanner: ScriptedScanner, for device: DeviceID) { scanners[device] = scanner }

    /// Gives `device` a scripted scanner carrying out `plan`, replacing any it had, and starts
    /// it from HCI_Reset now: how a phone's scan (``ScenarioDevice/scansAsPhone``) changes
    /// its duty, as iOS restarts its shared scan when the duty changes (iOS research §9,
    /// rule 8). The controller's scan stops with the reset and runs again with the new
    /// parameters once LE Set Scan Enable completes (Core 5.4, Vol 4, Part E, §7.8.11).
    public func startScanner(_ plan: ScriptedScanner.Plan, for device: DeviceID) {
        var scanner = ScriptedScanner(plan: plan)
        let packets = scanner.start()
        scanners[device] = scanner
        send(packets, to: device)
    }

    func receive(_ packet: H4.Packet, from device: DeviceID) {
        if !copiers.isEmpty { captureIfCopied(packet, by: device) }
        if !attackers.isEmpty, attackers[device] != nil {
            receiveAsAttacker(packet, from: device)
            onHostPacket?(device, packet)
            return
        }
        // Emptiness first: a world of external hosts only (the bench's) has neither, and
        // this runs for every packet to a host.
        if !scanners.isEmpty, var scanner = scanners[device] {
            let hadFailed = scanner.failure != nil
            let packets = scanner.handle(packet)
            scanners[device] = scanner
            if !hadFailed, let failure = scanner.failure {
                failures.append(failure)
                onLog?(failure.description)
            }
            send(packets, to: device)
        } else if !hosts.isEmpty, var host = hosts[device] {
            let wasFailed = host.failure != nil
            let packets = host.handle(packet)
            hosts[device] = host
            if !wasFailed, let failure = host.failure {
                failures.append(failure)
                onLog?(failure.description)
            }
            send(packets, to: device)
        } else {
            onExternalHostPacket?(device, packet)
        }
        onHostPacket?(device, packet)
    }

    private func send(_ packets: [H4.Packet], to device: DeviceID) {
        for packet in packets { world?.sendToController(packet, device: device) }
    }

    func perform(_ action: ScenarioAction, in world: World) {
        func id(_ name: String) -> DeviceID? { self.id(of: name) }
        switch action {
        case let .powerOff(name):
            if let device = id(name) { world.setPowered(false, device: device) }
        case let .powerOn(name):
            if let device = id(name) {
                world.setPowered(true, device: device)
                restartHost(of: device)
            }
        case let .powerCycle(name):
            if let device = id(name) {
                world.powerCycle(device)
                restartHost(of: device)
            }
        case let .setPacketLoss(a, b, rate):
            if let first = id(a), let second = id(b) { world.setPacketLoss(rate, between: first, and: second) }
        case let .blockLink(a, b, blocked):
            if let first = id(a), let second = id(b) { world.setLinkBlocked(blocked, between: first, and: second) }
        case let .stopAdvertising(name):
            if let device = id(name) { setAdvertising(false, device: device) }
        case let .startAdvertising(name):
            if let device = id(name) { setAdvertising(true, device: device) }
        case let .moveTo(name, position):
            if let device = id(name) { world.move(device, to: position) }
        case let .turn(name, degrees):
            if let device = id(name) { world.setHeading(device, degrees: degrees) }
        case .app, .bluetooth, .screen, .network, .notification, .airplaneMode, .controlCenterBluetooth, .reboot, .unlock,
             .preciseLocation:
            // The phone's system (BLEPhone) carries these out; the radio does not change.
            onPhoneAction?(action)
        }
    }
}

/// How a scenario's ``ScenarioDevice/HostKind/gatt`` devices are driven in a world.
public enum ScenarioGATTHosting: Hashable, Sendable {
    /// A ``ScriptedHost`` stands in for each GATT host and only advertises: for a world run
    /// without hosts (the world's own unit tests, the timeline runner).
    case advertiseOnly
    /// Real hosts attach from outside, one per GATT device (the adapter's simulated
    /// peripherals): their packets go to ``BuiltScenario/onExternalHostPacket``.
    case attached
}

extension Scenario {
    /// A controller seed for device `index`: the scenario seed through one SplitMix64 step
    /// per index, so each device has its own stream and the whole world replays from one seed.
    public static func controllerSeed(scenarioSeed: UInt64, index: Int) -> UInt64 {
        var z = scenarioSeed &+ 0x9E37_79B9_7F4A_7C15 &* UInt64(index + 1)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The public address a device's controller reports: its own address when public,
    /// otherwise one derived from its index (a random-address device still has one).
    public func controllerPublicAddress(index: Int) -> BluetoothAddress {
        let device = devices[index]
        if device.address.kind == .public { return device.address }
        return BluetoothAddress(0x00_5B_1E_00_00_00 + UInt64(index + 1))
    }

    /// How long after the world starts device `index`'s scripted host starts: its
    /// ``ScenarioDevice/start``, a random one drawn from the scenario's seed and the
    /// device's index within its first advertising (or scan) interval.
    public func hostStartDelay(index: Int) -> Microseconds {
        let device = devices[index]
        switch device.start {
        case let .at(seconds):
            return Microseconds((seconds * 1_000_000).rounded())
        case .randomInFirstInterval:
            let milliseconds = device.advertising?.intervalMilliseconds ?? device.scanning?.intervalMilliseconds ?? 100
            let unit = WorldRandom.unit(WorldRandom.hash(seed: seed, UInt64(index), 0x5354_4152_54, 0))
            return Microseconds((unit * milliseconds * 1_000).rounded(.down))
        }
    }

    /// This scenario with `count` more `host: external` devices, "host-1" … "host-N", at
    /// public addresses F0:5B:1E:00:00:01 … and positions 1 m apart along x at 1 m height.
    public func addingExternalDevices(_ count: Int) -> Scenario {
        var result = self
        var number = 0
        var added = 0
        while added < count {
            number += 1
            let name = "host-\(number)"
            let address = BluetoothAddress(0xF0_5B_1E_00_00_00 + UInt64(number))
            guard device(named: name) == nil, !devices.contains(where: { $0.address == address }) else { continue }
            let position = Vector3(x: Double(number), y: 0, z: 1)
            result.devices.append(ScenarioDevice(name: name, address: address,
                                                 description: DeviceDescription(name: name, position: position),
                                                 host: .external))
            added += 1
        }
        return result
    }

    /// Adds the devices (each with a `BLEController.Controller` from its address, seed and
    /// TX power, or a plain beacon's ``BLEController/BeaconController`` from the same) and
    /// obstacles to `world`, starts the scripted hosts at the world's current time and
    /// schedules the actions. Throws if the scenario is invalid or asks for what the world
    /// cannot do.
    /// - Parameters:
    ///   - world: the world to build into.
    ///   - gattHosting: whether GATT devices get a real host from outside or a scripted
    ///     stand-in that only advertises (the default: nothing else can run on a virtual clock).
    ///   - beacons: whether plain beacons run a ``BLEController/BeaconController`` each (the
    ///     default; not while the world captures HCI, whose snoops would miss their setup) or
    ///     a ``BLEController/Controller`` and a ``ScriptedHost`` each, as every other device.
    ///   - reports: whether the scripted scanners' controllers hand their advertising reports
    ///     over as values (``ScenarioReports/values``; not while the world captures HCI) or as
    ///     HCI events (the default).
    @discardableResult
    public func build(into world: World, gattHosting: ScenarioGATTHosting = .advertiseOnly,
                      beacons: ScenarioBeacons = .direct, reports: ScenarioReports = .throughHCI) throws(ScenarioError) -> BuiltScenario {
        let capturing = world.configuration.capturesHCI
        return try build(into: world, gattHosting: gattHosting, beacons: capturing ? .throughHost : beacons,
                         reports: capturing ? .throughHCI : reports) {
            Controller(configuration: $0)
        }
    }

    /// ``build(into:gattHosting:beacons:)`` with controllers from `makeController` (tests use
    /// their own) for every device, beacons included.
    @discardableResult
    public func build(into world: World, gattHosting: ScenarioGATTHosting = .advertiseOnly,
                      makeController: (ControllerConfiguration) -> any SimulatedController) throws(ScenarioError) -> BuiltScenario {
        try build(into: world, gattHosting: gattHosting, beacons: .throughHost, reports: .throughHCI, makeController: makeController)
    }

    private func build(into world: World, gattHosting: ScenarioGATTHosting, beacons: ScenarioBeacons, reports: ScenarioReports,
                       makeController: (ControllerConfiguration) -> any SimulatedController) throws(ScenarioError) -> BuiltScenario {
        try validate()
        var ids: [DeviceID] = []
        var plainBeacons: [DeviceID: Int] = [:]
        for (index, device) in devices.enumerated() {
            var configuration = ControllerConfiguration(
                publicAddress: controllerPublicAddress(index: index),
                seed: Scenario.controllerSeed(scenarioSeed: seed, index: index),
                txPowerDBm: device.txPowerDBm,
                // Only a device whose file asks for extended advertising or scanning claims the
                // features (LE Coded among them), so every other controller stays as it was.
                claimsExtendedAdvertising: device.usesExtendedCommands)
            configuration.reportsAdvertisingAsValues = reports == .values && device.scansInProcess
            if beacons == .direct, let beacon = plainBeacon(index: index, configuration: configuration) {
                let id = world.addDevice(device.description, controller: beacon.controller)
                plainBeacons[id] = beacon.setupCommands
                ids.append(id)
                continue
            }
            ids.append(world.addDevice(device.description, controller: controller(makeController(configuration), forDevice: index)))
        }
        for (device, id) in zip(devices, ids) {
            guard let carriage = device.carriedBy else { continue }
            guard let index = devices.firstIndex(where: { $0.name == carriage.device }),
                  world.carry(id, by: ids[index], offset: carriage.offset) else {
                throw ScenarioError(.invalidField, path: "carriedBy", device: device.name,
                                    message: "cannot ride with \"\(carriage.device)\"")
            }
        }
        for obstacle in obstacles { world.addObstacle(obstacle) }
        for attached in attachedObstacles {
            let carrier = devices.firstIndex { $0.name == attached.device }.map { ids[$0] }
            world.addObstacle(attached.obstacle, attachedTo: carrier)
        }
        let built = BuiltScenario(scenario: self, world: world, deviceIDs: ids, gattHosting: gattHosting)
        built.plainBeacons = plainBeacons
        for (device, id) in zip(devices, ids) where plainBeacons[id] == nil {
            let attached = device.host == .gatt && gattHosting == .attached
            if !attached, let plan = try device.advertisingPlan() { built.install(ScriptedHost(plan: plan), for: id) }
            if let plan = scanningPlan(of: device) { built.install(ScriptedScanner(plan: plan), for: id) }
        }
        // The world keeps the built scenario alive through its callback; the scenario holds the
        // world weakly, so there is no cycle.
        world.onHostPacket = { device, packet in built.receive(packet, from: device) }
        if reports == .values { world.onAdvertisingReport = { device, report in built.receive(report, from: device) } }
        built.installAttackers()
        let start = world.now
        for (index, id) in ids.enumerated() where built.hosts[id] != nil || built.scanners[id] != nil || plainBeacons[id] != nil {
            world.schedule(at: start + hostStartDelay(index: index)) { _ in built.restartHost(of: id) }
        }
        for timed in actions {
            world.schedule(at: start + timed.time) { world in built.perform(timed.action, in: world) }
        }
        for (device, id) in zip(devices, ids) {
            if let eid = device.advertising?.data.eddystoneEID, built.hosts[id] != nil {
                built.scheduleRotation(of: id, eid: eid, after: 0, worldStart: start)
            }
            if let copying = device.copying, let target = self.device(named: copying.target) {
                built.copiers[id] = BuiltScenario.Copier(
                    target: target.name, targetAddress: target.address,
                    captureUntil: start + Microseconds((copying.captureUntilSeconds * 1_000_000).rounded()),
                    intervalUnits: UInt16(clamping: Int((copying.intervalMilliseconds / 0.625).rounded())))
                world.schedule(at: start + Microseconds((copying.replayFromSeconds * 1_000_000).rounded())) { _ in built.replay(copier: id) }
            }
        }
        return built
    }
}
