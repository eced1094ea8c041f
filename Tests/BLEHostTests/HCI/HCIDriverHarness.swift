import BLEController
import BLEHost
import BLEWire
import BLEWorld
import Testing

/// A controller scripted in the test: it answers every command at once with Command Complete
/// from a table (default: success with the simulated controller's return parameters), so a
/// test can make a controller that lacks commands, returns zero buffers, or stays silent.
struct ScriptedController {
    /// Return parameters by opcode; a missing opcode is answered 0x01 Unknown HCI Command.
    var answers: [HCI.Opcode: [UInt8]]
    /// Opcodes that get no answer at all.
    var silent: Set<HCI.Opcode> = []
    /// Credits given in each answer.
    var credits: UInt8 = 1
    /// Every command received, in order.
    var received: [HCI.Opcode] = []
    /// Every ACL packet received, in order.
    var acl: [HCI.ACLPacket] = []

    /// A controller like the simulated one: address 11:22:33:44:55:66, `bufferLength` ×
    /// `bufferCount` LE buffers, every command of a Core 5.4 controller.
    static func typical(bufferLength: UInt16 = 251, bufferCount: UInt8 = 8, supported: HCI.SupportedCommands? = Controller.supportedCommandsField) -> ScriptedController {
        var answers: [HCI.Opcode: [UInt8]] = [
            HCI.Reset.opcode: [0],
            HCI.ReadLocalVersionInformation.opcode: HCI.ReadLocalVersionInformation.ReturnParameters(
                status: .success, hciVersion: 0x0C, hciSubversion: 1, lmpVersion: 0x0C, companyIdentifier: 0x0002, lmpSubversion: 2).encoded(),
            HCI.ReadLocalSupportedFeatures.opcode: HCI.ReadLocalSupportedFeatures.ReturnParameters(status: .success, lmpFeatures: 1 << 38).encoded(),
            HCI.ReadBDADDR.opcode: HCI.ReadBDADDR.ReturnParameters(status: .success, bdAddr: BluetoothAddress(0x1122_3344_5566)).encoded(),
            HCI.LEReadBufferSize.opcode: HCI.LEReadBufferSize.ReturnParameters(
                status: .success, leACLDataPacketLength: bufferLength, totalNumLEACLDataPackets: bufferCount).encoded(),
            HCI.LEReadBufferSizeV2.opcode: HCI.LEReadBufferSizeV2.ReturnParameters(
                status: .success, leACLDataPacketLength: bufferLength, totalNumLEACLDataPackets: bufferCount,
                isoDataPacketLength: 0, totalNumISODataPackets: 0).encoded(),
            HCI.LEReadLocalSupportedFeatures.opcode: HCI.LEReadLocalSupportedFeatures.ReturnParameters(
                status: .success, leFeatures: [.leEncryption, .leDataPacketLengthExtension]).encoded(),
            HCI.SetEventMask.opcode: [0],
            HCI.LESetEventMask.opcode: [0],
            HCI.LEWriteSuggestedDefaultDataLength.opcode: [0],
            HCI.LESetAdvertisingEnable.opcode: [0],
            HCI.LESetScanEnable.opcode: [0],
        ]
        if let supported {
            answers[HCI.ReadLocalSupportedCommands.opcode] = HCI.ReadLocalSupportedCommands.ReturnParameters(
                status: .success, supportedCommands: supported).encoded()
        }
        return ScriptedController(answers: answers)
    }

    /// The controller's answers to `packet`.
    mutating func answer(_ packet: H4.Packet) -> [H4.Packet] {
        switch packet {
        case let .command(command):
            received.append(command.opcode)
            guard !silent.contains(command.opcode) else { return [] }
            let parameters = answers[command.opcode] ?? [HCI.StatusCode.unknownHCICommand.rawValue]
            return [.event(HCI.Event.commandComplete(HCI.CommandComplete(
                numHCICommandPackets: credits, opcode: command.opcode, returnParameters: parameters[...])).packet)]
        case let .acl(data):
            acl.append(data)
            return []
        default:
            return []
        }
    }
}

/// A driver wired to a scripted controller: sends are answered at once, in order, and
/// everything else the driver outputs is recorded.
struct ScriptedHost {
    var driver: HCIDriver
    var controller: ScriptedController
    var outputs: [HCIDriverOutput] = []
    var now: HostTime = 0

    init(controller: ScriptedController, configuration: HCIDriverConfiguration = .init()) {
        driver = HCIDriver(configuration: configuration)
        self.controller = controller
    }

    mutating func start() { carryOut(driver.start(at: now)) }

    mutating func receive(_ packet: H4.Packet) { carryOut(driver.receive(packet, at: now)) }

    mutating func receive(_ event: HCI.Event) { receive(.event(event.packet)) }

    mutating func carryOut(_ produced: [HCIDriverOutput]) {
        var work = produced
        while !work.isEmpty {
            let output = work.removeFirst()
            if case let .send(packet) = output {
                for answer in controller.answer(packet) { work += driver.receive(answer, at: now) }
            } else {
                outputs.append(output)
            }
        }
    }

    /// A connection on `handle` as the controller would report it.
    mutating func connect(handle: UInt16) {
        receive(.leMeta(.connectionComplete(HCI.LEConnectionComplete(
            status: .success, connectionHandle: handle, role: .central, peerAddressType: .public,
            peerAddress: BluetoothAddress(0xA0A0_A0A0_A0A0), connectionInterval: 6, peripheralLatency: 0,
            supervisionTimeout: 200, centralClockAccuracy: .ppm500))))
    }

    /// The outputs recorded so far, and forgets them.
    mutating func take() -> [HCIDriverOutput] {
        defer { outputs = [] }
        return outputs
    }
}

/// Real simulated controllers in a World, each driven by an `HCIDriver`: packets from a
/// controller go to its driver, the driver's sends go back to the controller, its timer
/// runs on the world's clock, and every other output is recorded.
final class DriverWorld {
    let world: World
    private(set) var drivers: [HCIDriver] = []
    private(set) var outputs: [[HCIDriverOutput]] = []
    /// ACL packets each driver sent, in order.
    private(set) var sentACL: [[HCI.ACLPacket]] = []
    private var timerArmed: [HostTime?] = []

    init(seed: UInt64) {
        world = World(configuration: WorldConfiguration(seed: seed))
        world.onHostPacket = { [unowned self] device, packet in
            let produced = drivers[device.rawValue].receive(packet, at: world.now)
            carryOut(produced, device: device)
        }
    }

    @discardableResult
    func add(_ name: String, address: UInt64, x: Double, bufferSize: Int = 251, bufferCount: Int = 8) -> DeviceID {
        let configuration = ControllerConfiguration(
            publicAddress: BluetoothAddress(address), seed: address, leACLBufferSize: bufferSize, leACLBufferCount: bufferCount)
        let device = world.addDevice(DeviceDescription(name: name, position: Vector3(x: x, y: 0, z: 0)), controller: Controller(configuration: configuration))
        drivers.append(HCIDriver())
        outputs.append([])
        sentACL.append([])
        timerArmed.append(nil)
        return device
    }

    func carryOut(_ produced: [HCIDriverOutput], device: DeviceID) {
        for output in produced {
            if case let .send(packet) = output {
                if case let .acl(data) = packet { sentACL[device.rawValue].append(data) }
                world.sendToController(packet, device: device)
            } else {
                outputs[device.rawValue].append(output)
            }
        }
        armTimer(device)
    }

    private func armTimer(_ device: DeviceID) {
        guard let deadline = drivers[device.rawValue].nextDeadline, timerArmed[device.rawValue] != deadline else { return }
        timerArmed[device.rawValue] = deadline
        world.schedule(at: deadline) { [unowned self] world in
            timerArmed[device.rawValue] = nil
            carryOut(drivers[device.rawValue].timerFired(at: world.now), device: device)
        }
    }

    func start(_ device: DeviceID) { carryOut(drivers[device.rawValue].start(at: world.now), device: device) }

    func submit<C: HCICommand>(_ device: DeviceID, _ command: C, token: UInt64 = 0) {
        carryOut(drivers[device.rawValue].submit(command, token: HCICommandToken(token), at: world.now), device: device)
    }

    func send(_ device: DeviceID, frame: [UInt8], handle: UInt16) {
        carryOut(drivers[device.rawValue].sendL2CAP(frame, handle: handle, at: world.now), device: device)
    }

    /// Runs the world until `done` holds or `limit` microseconds of virtual time pass.
    @discardableResult
    func run(for limit: Microseconds, until done: () -> Bool) -> Bool {
        let deadline = world.now + limit
        while !done() {
            guard let next = world.nextEventTime, next <= deadline else { return done() }
            world.runNextEvent()
        }
        return true
    }

    func driver(_ device: DeviceID) -> HCIDriver { drivers[device.rawValue] }
    func recorded(_ device: DeviceID) -> [HCIDriverOutput] { outputs[device.rawValue] }

    /// Starts both, advertises on `peripheral`, connects from `central`; the two handles.
    func connect(central: DeviceID, peripheral: DeviceID, peripheralAddress: UInt64) -> (UInt16, UInt16)? {
        start(central)
        start(peripheral)
        guard run(for: 1_000_000, until: { driver(central).isReady && driver(peripheral).isReady }) else { return nil }
        submit(peripheral, HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: 32, advertisingIntervalMax: 32, advertisingType: .connectableUndirected,
            ownAddressType: .public, peerAddress: BluetoothAddress(0), advertisingChannelMap: .all,
            advertisingFilterPolicy: .acceptAll))
        submit(peripheral, HCI.LESetAdvertisingEnable(advertisingEnable: true))
        submit(central, HCI.LECreateConnection(
            leScanInterval: 0x0010, leScanWindow: 0x0010, peerAddressType: .public, peerAddress: BluetoothAddress(peripheralAddress),
            ownAddressType: .public,
            connectionParameters: HCI.LEConnectionParameters(
                connectionIntervalMin: 6, connectionIntervalMax: 6, maxLatency: 0, supervisionTimeout: 200)))
        guard run(for: 3_000_000, until: {
            !driver(central).connectionHandles.isEmpty && !driver(peripheral).connectionHandles.isEmpty
        }) else { return nil }
        guard let a = driver(central).connectionHandles.first, let b = driver(peripheral).connectionHandles.first else { return nil }
        return (a, b)
    }
}

/// An L2CAP B-frame on `channel` with `count` octets of a recognisable payload.
func basicFrame(count: Int, channel: UInt16 = 0x0040) -> [UInt8] {
    var frame = [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(channel & 0xFF), UInt8(channel >> 8)]
    frame += (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    return frame
}
