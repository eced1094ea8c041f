import BLEController
import BLEWire
import BLEWorld
import Testing

/// A world of real controllers with a minimal host per device for tests: it sends HCI
/// commands, waits for their answers on the virtual clock, and records every event and ACL
/// packet each host receives, with its virtual time.
final class HostedWorld {
    let world: World
    private(set) var events: [[(at: Microseconds, event: HCI.Event)]] = []
    private(set) var acl: [[(at: Microseconds, packet: HCI.ACLPacket)]] = []
    /// Called for every ACL packet and event a host receives, after it is recorded.
    var onEvent: ((DeviceID, HCI.Event) -> Void)?

    init(seed: UInt64, timing: TimingMode = .realistic, radio: RadioModel = RadioModel(), capturesHCI: Bool = true) {
        world = World(configuration: WorldConfiguration(seed: seed, timing: timing, radio: radio, capturesHCI: capturesHCI))
        world.onHostPacket = { [unowned self] device, packet in
            switch packet {
            case let .event(eventPacket):
                guard let event = try? HCI.Event(decoding: eventPacket) else {
                    Issue.record("\(device) got an undecodable event \(Hex.encode(eventPacket.encoded()))")
                    return
                }
                events[device.rawValue].append((world.now, event))
                onEvent?(device, event)
            case let .acl(packet):
                acl[device.rawValue].append((world.now, packet))
            default:
                break
            }
        }
    }

    /// Adds a device with a real controller, resets it and enables LE events, as a host does;
    /// with `codedPHY` the controller has the LE Coded PHY (and extended advertising).
    @discardableResult
    func add(_ name: String, at position: Vector3, address: UInt64, seed: UInt64, txPowerDBm: Double = 0,
             airtimeFreeData: Bool = false, codedPHY: Bool = false) -> DeviceID {
        let configuration = ControllerConfiguration(publicAddress: BluetoothAddress(address), seed: seed, txPowerDBm: txPowerDBm,
                                                    airtimeFreeData: airtimeFreeData, claimsExtendedAdvertising: codedPHY)
        let device = world.addDevice(DeviceDescription(name: name, position: position), controller: Controller(configuration: configuration))
        events.append([])
        acl.append([])
        command(device, HCI.Reset())
        command(device, HCI.SetEventMask(eventMask: HCI.EventMask.defaultAfterReset.union(.leMeta)))
        return device
    }

    /// Sends `command` and runs the world until its Command Complete or Command Status arrives
    /// (at most 10 ms of virtual time); returns that event.
    @discardableResult
    func command<Command: HCICommand>(_ device: DeviceID, _ command: Command) -> HCI.Event? {
        let before = events[device.rawValue].count
        world.sendToController(.command(HCI.CommandPacket(opcode: Command.opcode, parameters: command.encoded()[...])), device: device)
        let deadline = world.now + 10_000
        while true {
            for (_, event) in events[device.rawValue][before...] {
                switch event {
                case let .commandComplete(done) where done.opcode == Command.opcode: return event
                case let .commandStatus(status) where status.opcode == Command.opcode: return event
                default: continue
                }
            }
            guard let next = world.nextEventTime, next <= deadline else { return nil }
            world.runNextEvent()
        }
    }

    /// Starts legacy advertising with `data` every `interval` × 0.625 ms.
    func advertise(_ device: DeviceID, type: HCI.LESetAdvertisingParameters.AdvertisingType = .connectableUndirected,
                   interval: UInt16 = 160, data: [UInt8] = [0x02, 0x01, 0x06]) {
        command(device, HCI.LESetAdvertisingParameters(
            advertisingIntervalMin: interval, advertisingIntervalMax: interval, advertisingType: type,
            ownAddressType: .public, peerAddress: BluetoothAddress(0), advertisingChannelMap: .all,
            advertisingFilterPolicy: .acceptAll))
        command(device, HCI.LESetAdvertisingData(advertisingData: data[...]))
        command(device, HCI.LESetAdvertisingEnable(advertisingEnable: true))
    }

    /// Starts scanning with window = interval (continuous on one channel per interval).
    func scan(_ device: DeviceID, active: Bool = false, interval: UInt16 = 0x4000) {
        command(device, HCI.LESetScanParameters(
            leScanType: active ? .active : .passive, leScanInterval: interval, leScanWindow: interval,
            ownAddressType: .public, scanningFilterPolicy: .basicUnfiltered))
        command(device, HCI.LESetScanEnable(leScanEnable: true, filterDuplicates: false))
    }

    /// The advertising reports `device`'s host received, with their times.
    func reports(_ device: DeviceID) -> [(at: Microseconds, report: HCI.LEAdvertisingReport.Report)] {
        events[device.rawValue].flatMap { item -> [(at: Microseconds, report: HCI.LEAdvertisingReport.Report)] in
            guard case let .leMeta(.advertisingReport(event)) = item.event else { return [] }
            return event.reports.map { (item.at, $0) }
        }
    }

    /// Connects `central` to `peripheral` (which must be advertising) with `interval` × 1.25 ms.
    /// Returns the two connection handles once both hosts have LE Connection Complete.
    /// A CONNECT_IND lost in the air (a collision with another device's packet) leaves the
    /// central alone until the link fails to be established (0x3E), as on real radios; like a
    /// host, this tries again, up to three times.
    func connect(_ central: DeviceID, to peripheral: DeviceID, address: UInt64, interval: UInt16 = 6) -> (central: UInt16, peripheral: UInt16)? {
        for _ in 0 ..< 3 {
            let centralBefore = events[central.rawValue].count
            let peripheralBefore = events[peripheral.rawValue].count
            command(central, HCI.LECreateConnection(
                leScanInterval: 0x0010, leScanWindow: 0x0010, peerAddressType: .public, peerAddress: BluetoothAddress(address),
                ownAddressType: .public,
                connectionParameters: HCI.LEConnectionParameters(
                    connectionIntervalMin: interval, connectionIntervalMax: interval, maxLatency: 0, supervisionTimeout: 200)))
            world.run(until: world.now + 1_000_000)
            if let a = connectionHandle(central, since: centralBefore), let b = connectionHandle(peripheral, since: peripheralBefore) {
                return (a, b)
            }
        }
        return nil
    }

    /// The handle of a connection that completed after event `since` and is still up.
    func connectionHandle(_ device: DeviceID, since: Int = 0) -> UInt16? {
        var handle: UInt16?
        for (_, event) in events[device.rawValue][since...] {
            switch event {
            case let .leMeta(.connectionComplete(done)) where done.status == .success: handle = done.connectionHandle
            case let .disconnectionComplete(done) where done.connectionHandle == handle: handle = nil
            default: break
            }
        }
        return handle
    }
}
