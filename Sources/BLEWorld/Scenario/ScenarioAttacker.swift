import BLEController
import BLEWire

/// The scripted host of a hostile scenario device (``ScenarioAttack``): it connects to its
/// target as central and, once connected, sends the ATT Read Requests (handle 0x0003, one
/// per L2CAP frame) that its controller's attack rewrites; for an invalid channel map it also
/// asks its controller for a channel map update. When a link ends or fails it connects again,
/// a few times, so a scenario shows whether the target still takes an honest connection once
/// the attack's budget is spent.
///
/// Sans-IO like ``ScriptedHost``: ``start()`` and ``handle(_:)`` return the packets to send.
public struct ScenarioAttacker: Sendable {
    /// The attack, with its target's name.
    public let attack: ScenarioAttack
    /// The target's address as it advertises.
    public let targetAddress: BluetoothAddress
    /// The connection to the target, while there is one.
    public private(set) var connection: UInt16?
    /// Links made to the target so far.
    public private(set) var connections = 0
    /// Why each link ended, in order (Disconnection Complete, or a failed LE Connection Complete).
    public private(set) var endings: [HCI.StatusCode] = []

    /// Read Requests sent per link.
    static let framesPerLink = 4
    /// Connection attempts after the first.
    static let reconnections = 3

    /// A host for `attack` against the device advertising as `targetAddress`.
    public init(attack: ScenarioAttack, targetAddress: BluetoothAddress) {
        self.attack = attack
        self.targetAddress = targetAddress
    }

    /// The set-up: LE Meta events on, then LE Create Connection to the target.
    public mutating func start() -> [H4.Packet] {
        [Self.command(HCI.SetEventMask(eventMask: HCI.EventMask.defaultAfterReset.union(.leMeta))), createConnection()]
    }

    /// Handles one packet from the controller and returns what to send.
    public mutating func handle(_ packet: H4.Packet) -> [H4.Packet] {
        guard case let .event(raw) = packet, let event = try? HCI.Event(decoding: raw) else { return [] }
        switch event {
        case let .leMeta(.connectionComplete(complete)):
            guard complete.status == .success else { return ended(complete.status) }
            connection = complete.connectionHandle
            connections += 1
            var packets = (0 ..< Self.framesPerLink).map { _ in
                H4.Packet.acl(HCI.ACLPacket(connectionHandle: complete.connectionHandle, packetBoundary: .firstNonAutomaticallyFlushable,
                                            data: [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00][...]))
            }
            if case .invalidChannelMap = attack.attack {
                packets.append(Self.command(HCI.LESetHostChannelClassification(channelMap: HCI.LEChannelMap(rawValue: 0x1F_FFFF_FF00))))
            }
            return packets
        case let .disconnectionComplete(complete):
            guard complete.connectionHandle == connection else { return [] }
            connection = nil
            return ended(complete.reason)
        default:
            return []
        }
    }

    private mutating func ended(_ reason: HCI.StatusCode) -> [H4.Packet] {
        endings.append(reason)
        return endings.count <= Self.reconnections ? [createConnection()] : []
    }

    private func createConnection() -> H4.Packet {
        Self.command(HCI.LECreateConnection(
            leScanInterval: 0x0010, leScanWindow: 0x0010, peerAddressType: targetAddress.kind == .random ? .random : .public,
            peerAddress: targetAddress, ownAddressType: .public,
            connectionParameters: HCI.LEConnectionParameters(
                connectionIntervalMin: 24, connectionIntervalMax: 24, maxLatency: 0, supervisionTimeout: 200)))
    }

    private static func command<Command: HCICommand>(_ command: Command) -> H4.Packet {
        .command(HCI.CommandPacket(opcode: Command.opcode, parameters: command.encoded()[...]))
    }
}

extension BuiltScenario {
    /// The scripted host of the hostile device called `name`, as it is now.
    public func attacker(named name: String) -> ScenarioAttacker? { id(of: name).flatMap { attackers[$0] } }

    /// Installs the scripted hosts of the scenario's hostile devices; each starts with the world.
    func installAttackers() {
        for (device, id) in zip(scenario.devices, deviceIDs) {
            guard let attack = device.attack, let target = scenario.device(named: attack.target) else { continue }
            attackers[id] = ScenarioAttacker(attack: attack, targetAddress: target.address)
            world?.schedule(at: world?.now ?? 0) { [weak self] _ in self?.startAttacker(id) }
        }
    }

    private func startAttacker(_ id: DeviceID) {
        guard var attacker = attackers[id] else { return }
        let packets = attacker.start()
        attackers[id] = attacker
        for packet in packets { world?.sendToController(packet, device: id) }
    }

    /// Gives a hostile device's scripted host a packet from its controller.
    func receiveAsAttacker(_ packet: H4.Packet, from id: DeviceID) {
        guard var attacker = attackers[id] else { return }
        let packets = attacker.handle(packet)
        attackers[id] = attacker
        for packet in packets { world?.sendToController(packet, device: id) }
    }
}

extension Scenario {
    /// The controller of scenario device `index` for `configuration`: `made` itself, or,
    /// for a hostile device, a ``BLEController/HostileController`` around it.
    func controller(_ made: any SimulatedController, forDevice index: Int) -> any SimulatedController {
        guard let attack = devices[index].attack, let honest = made as? Controller else { return made }
        return HostileController(honest, attack: attack.attack, budget: attack.budget)
    }
}
