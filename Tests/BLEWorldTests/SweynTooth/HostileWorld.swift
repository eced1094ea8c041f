import BLEController
import BLEWire
import BLEWorld

/// A world of two devices a metre apart: our controller (the victim) and a
/// ``HostileController`` running a SweynTooth attack. The test plays both hosts in raw HCI:
/// it sends commands and ACL packets and reads the events and data each controller sent up.
final class HostileWorld {
    let world: World
    let victim: DeviceID
    let attacker: DeviceID
    static let victimAddress = BluetoothAddress(0xC0_57_0C_00_00_01)
    static let attackerAddress = BluetoothAddress(0xC0_BA_D0_00_00_02)
    /// Events each host received, in order.
    private(set) var events: [DeviceID: [HCI.Event]] = [:]
    /// ACL packets each host received, in order.
    private(set) var acl: [DeviceID: [HCI.ACLPacket]] = [:]

    init(attack: SweynToothAttack, budget: Int = .max, seed: UInt64 = 32) {
        world = World(configuration: WorldConfiguration(seed: seed))
        victim = world.addDevice(DeviceDescription(name: "victim", position: Vector3(x: 0, y: 0, z: 0)),
                                 controller: Controller(configuration: ControllerConfiguration(publicAddress: Self.victimAddress, seed: 1)))
        let honest = Controller(configuration: ControllerConfiguration(publicAddress: Self.attackerAddress, seed: 2))
        attacker = world.addDevice(DeviceDescription(name: "attacker", position: Vector3(x: 1, y: 0, z: 0)),
                                   controller: HostileController(honest, attack: attack, budget: budget))
        world.onHostPacket = { [unowned self] device, packet in
            switch packet {
            case let .event(raw): if let event = try? HCI.Event(decoding: raw) { events[device, default: []].append(event) }
            case let .acl(data): acl[device, default: []].append(data)
            default: break
            }
        }
        for device in [victim, attacker] {
            command(device, HCI.SetEventMask(eventMask: HCI.EventMask.defaultAfterReset.union(.leMeta)))
        }
    }

    /// Sends `command` from `device`'s host.
    func command<Command: HCICommand>(_ device: DeviceID, _ command: Command) {
        world.sendToController(.command(HCI.CommandPacket(opcode: Command.opcode, parameters: command.encoded()[...])), device: device)
    }

    /// Runs the world for `duration` µs of virtual time.
    func run(for duration: Microseconds) { world.run(until: world.now + duration) }

    /// Connects: `peripheral` advertises, the other device initiates. Returns the handles
    /// (victim's, attacker's) once both hosts heard LE Connection Complete, or `nil`.
    func connect(peripheral: DeviceID) -> (victim: UInt16, attacker: UInt16)? {
        let central = peripheral == victim ? attacker : victim
        let peripheralAddress = peripheral == victim ? Self.victimAddress : Self.attackerAddress
        command(peripheral, HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: 32, advertisingIntervalMax: 32, advertisingType: .connectableUndirected,
            ownAddressType: .public, peerAddress: BluetoothAddress(0), advertisingChannelMap: .all, advertisingFilterPolicy: .acceptAll))
        command(peripheral, HCI.LESetAdvertisingEnable(advertisingEnable: true))
        command(central, HCI.LECreateConnection(
            leScanInterval: 0x0010, leScanWindow: 0x0010, peerAddressType: .public, peerAddress: peripheralAddress,
            ownAddressType: .public,
            connectionParameters: HCI.LEConnectionParameters(
                connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0, supervisionTimeout: 200)))
        run(for: 1_000_000)
        guard let ours = connectionHandle(victim), let theirs = connectionHandle(attacker) else { return nil }
        return (ours, theirs)
    }

    /// The handle of `device`'s first successful LE Connection Complete.
    func connectionHandle(_ device: DeviceID) -> UInt16? {
        connectionCompletes(device).first { $0.status == .success }?.connectionHandle
    }

    /// Every LE Connection Complete `device`'s host received.
    func connectionCompletes(_ device: DeviceID) -> [HCI.LEConnectionComplete] {
        events[device, default: []].compactMap { if case let .leMeta(.connectionComplete(event)) = $0 { event } else { nil } }
    }

    /// The reasons of every Disconnection Complete `device`'s host received.
    func disconnections(_ device: DeviceID) -> [HCI.StatusCode] {
        events[device, default: []].compactMap { if case let .disconnectionComplete(event) = $0 { event.reason } else { nil } }
    }

    /// Sends one L2CAP B-frame from `device`'s host as a single ACL packet.
    func send(_ frame: [UInt8], from device: DeviceID, handle: UInt16) {
        world.sendToController(.acl(HCI.ACLPacket(connectionHandle: handle, packetBoundary: .firstNonAutomaticallyFlushable, data: frame[...])),
                               device: device)
    }

    /// The L2CAP octets `device`'s host received, all ACL packets joined.
    func received(_ device: DeviceID) -> [UInt8] { acl[device, default: []].flatMap { Array($0.data) } }

    /// Our controller as it is now.
    var victimController: Controller? { world.controller(of: victim) as? Controller }

    /// The hostile controller as it is now.
    var hostile: HostileController? { world.controller(of: attacker) as? HostileController }
}

/// An ATT Read Request for handle 0x0003 in an L2CAP B-frame on the ATT channel: 7 octets.
let readRequestFrame: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00]
